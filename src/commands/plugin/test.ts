import { isDeepStrictEqual } from 'node:util';
import { Args, Flags } from '@oclif/core';
import { MockError } from '../../../common/errors.js';
import { MockCommand } from '../../cli/mock-command.js';
import { installedPlugin, pluginFlags, pluginSettings } from '../../plugins/index.js';
import { checkModule, Sandbox } from '../../../runtime/index.js';

export default class PluginTest extends MockCommand {
  static summary = "Run an installed plugin's declared test cases (its manifest's tests: action, input, expected output) in its sandbox, under the limits of mock.yaml.";

  static examples = ['<%= config.bin %> <%= command.id %> upper', '<%= config.bin %> <%= command.id %> auth --json'];

  static args = { name: Args.string({ required: true, description: 'Installed plugin name (mock plugin list)' }) };

  static flags = { ...pluginFlags, json: Flags.boolean({ description: 'Print the results as JSON' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PluginTest);
    const settings = pluginSettings(flags);
    const { module } = installedPlugin(settings.dir, args.name);
    const report = checkModule(module);
    const manifest = report.manifest;
    const tests = manifest?.tests ?? [];
    if (manifest === undefined || tests.length === 0)
      throw new MockError('MOCK_ERR_PLUGIN_TEST_FAILED', `plugin ${args.name} declares no test cases (add tests: [{action, input, output}] to its manifest)`);
    const sandbox = new Sandbox(module, Object.keys(manifest.actions), settings.limitsOf(args.name), report.usesWasi);
    sandbox.start();
    const results = tests.map((test, index) => {
      const result = sandbox.call(test.action, JSON.stringify(test.input));
      if (!result.ok) return { index, action: test.action, passed: false, problem: `${result.kind}: ${result.reason}` };
      let output: unknown;
      try {
        output = JSON.parse(result.json);
      } catch {
        return { index, action: test.action, passed: false, problem: `answered what is not JSON: ${result.json.slice(0, 200)}` };
      }
      return isDeepStrictEqual(output, test.output)
        ? { index, action: test.action, passed: true }
        : { index, action: test.action, passed: false, problem: `expected ${JSON.stringify(test.output)}, got ${JSON.stringify(output)}` };
    });
    sandbox.stop();
    const failed = results.filter((r) => !r.passed);
    if (flags.json) this.log(JSON.stringify({ plugin: args.name, passed: results.length - failed.length, failed: failed.length, results }, null, 2));
    else for (const r of results) this.log(`${r.passed ? 'ok' : 'not ok'} ${r.index + 1} ${r.action}${r.problem === undefined ? '' : `: ${r.problem}`}`);
    if (failed.length > 0) throw new MockError('MOCK_ERR_PLUGIN_TEST_FAILED', `plugin ${args.name}: ${failed.length} of ${results.length} test cases failed`);
    if (!flags.json) this.log(`mock: plugin ${args.name}: ${results.length} test cases passed`);
  }
}
