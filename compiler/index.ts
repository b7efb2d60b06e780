export type { BuildOptions, BuildResult, CheckResult, SpecInput } from './options.js';
export { build, checkBuild } from './build.js';
export { isBuildStale } from './staleness.js';
export { defaultName } from './inputs.js';
export { TOOL_VERSION } from './version.js';
