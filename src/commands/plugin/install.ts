import { Args, Flags } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { installFrom, pluginFlags, pluginSettings } from '../../plugins/index.js';

export default class PluginInstall extends MockCommand {
  static summary = 'Install a WebAssembly plugin from a local file, an http(s) URL or a version tag of a Git repository.';

  static description = [
    'Fetches the module, verifies --checksum before anything is written, checks it against the plugin ABI and the limits of mock.yaml',
    '(exports, ABI version, a declared memory maximum within max_memory_mb, WASI as the only import), and writes it to',
    '<plugins.dir>/<name>/ (plugin.wasm and install.json, which records the source, version and sha256) in one rename: never half a plugin.',
    'mock serve loads every installed plugin. See docs/plugins.md.',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %> ./upper.wasm',
    '<%= config.bin %> <%= command.id %> https://example.com/plugins/auth.wasm --checksum sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    '<%= config.bin %> <%= command.id %> git+https://github.com/acme/mock-auth-plugin.git#v1.2.0',
    '<%= config.bin %> <%= command.id %> git+../auth-plugin#v1.0.0 --force',
  ];

  static args = {
    source: Args.string({ required: true, description: 'A .wasm file, an http(s) URL, or git+<repository URL or path>#<version tag>' }),
  };

  static flags = {
    ...pluginFlags,
    checksum: Flags.string({ description: "The module's SHA-256, verified before anything is written", helpValue: 'sha256:<hex>' }),
    force: Flags.boolean({ description: 'Replace a plugin of the same name that is installed already' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PluginInstall);
    const settings = pluginSettings(flags);
    const record = await installFrom(settings, args.source, { checksum: flags.checksum, force: flags.force, cwd: process.cwd() });
    this.log(`mock: installed plugin ${record.name} ${record.version} (sha256:${record.sha256}) from ${record.source}`);
  }
}
