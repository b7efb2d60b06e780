// oclif as bin/run.js starts it, bundled with the commands (scripts/bundle-cli.js): the launcher
// and every command share this one copy, and a start compiles one file instead of finding and
// compiling the ~170 files of oclif and the packages it loads (about 0.1 s of CPU per command).
export { execute } from '@oclif/core';
