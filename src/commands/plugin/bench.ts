import { Args, Flags } from '@oclif/core';
import { MockError } from '../../../common/errors.js';
import { MockCommand } from '../../cli/mock-command.js';
import { installedPlugin, pluginFlags, pluginSettings } from '../../plugins/index.js';
import { checkModule, Sandbox } from '../../../runtime/index.js';

export default class PluginBench extends MockCommand {
  static summary = 'Measure one action of an installed plugin as mock serve calls it (synchronously, through its sandbox): calls/s and the p50 and p99 of a call.';

  static description = "The input is --input, else the first declared test case's input for the action, else []. Every call must succeed.";

  static examples = ['<%= config.bin %> <%= command.id %> upper --action upper', '<%= config.bin %> <%= command.id %> auth --action validate_token --input \'{"headers":{}}\' --calls 50000 --json'];

  static args = { name: Args.string({ required: true, description: 'Installed plugin name (mock plugin list)' }) };

  static flags = {
    ...pluginFlags,
    action: Flags.string({ description: 'The action to call [default: the first in the manifest]' }),
    input: Flags.string({ description: 'Input JSON for each call' }),
    calls: Flags.integer({ description: 'How many calls to time', default: 20000, min: 1 }),
    json: Flags.boolean({ description: 'Print the result as JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PluginBench);
    const settings = pluginSettings(flags);
    const { module } = installedPlugin(settings.dir, args.name);
    const report = checkModule(module);
    const manifest = report.manifest;
    if (manifest === undefined) throw new MockError('MOCK_ERR_PLUGIN_INVALID', `plugin ${args.name} is not valid: ${report.problems.join('; ')} (mock plugin validate ${args.name})`);
    const action = flags.action ?? Object.keys(manifest.actions)[0];
    if (manifest.actions[action] === undefined) throw new MockError('MOCK_ERR_FLAG_INVALID', `--action ${action}: plugin ${args.name} has ${Object.keys(manifest.actions).join(', ')}`);
    if (flags.input !== undefined) {
      try {
        JSON.parse(flags.input);
      } catch {
        throw new MockError('MOCK_ERR_FLAG_INVALID', `--input is not JSON: ${flags.input}`);
      }
    }
    const input = flags.input ?? JSON.stringify(manifest.tests?.find((t) => t.action === action)?.input ?? []);
    const sandbox = new Sandbox(module, Object.keys(manifest.actions), settings.limitsOf(args.name), report.usesWasi);
    sandbox.start();
    try {
      const times = new Float64Array(flags.calls);
      for (let i = 0; i < Math.min(1000, flags.calls); i++) sandbox.call(action, input);
      const started = performance.now();
      for (let i = 0; i < flags.calls; i++) {
        const t0 = performance.now();
        const result = sandbox.call(action, input);
        times[i] = performance.now() - t0;
        if (!result.ok) throw new MockError('MOCK_ERR_PLUGIN_TEST_FAILED', `plugin ${args.name}: ${action} failed on call ${i + 1}: ${result.kind}: ${result.reason}`);
      }
      const seconds = (performance.now() - started) / 1000;
      times.sort();
      const at = (q: number): number => Math.round(times[Math.min(times.length - 1, Math.floor(times.length * q))] * 1000 * 10) / 10;
      const result = { plugin: args.name, action, calls: flags.calls, calls_per_second: Math.round(flags.calls / seconds), p50_us: at(0.5), p99_us: at(0.99) };
      if (flags.json) this.log(JSON.stringify(result, null, 2));
      else this.log(`mock: ${args.name} ${action}: ${result.calls_per_second} calls/s over ${flags.calls} calls; p50 ${result.p50_us} µs, p99 ${result.p99_us} µs`);
    } finally {
      sandbox.stop();
    }
  }
}
