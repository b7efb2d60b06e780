import path from 'node:path';
import { Flags } from '@oclif/core';
import { isMockError, MockError } from '../../../common/errors.js';
import { writeWhole } from '../../../common/write-whole.js';
import { allowRefFlag, allowedRefs } from '../../cli/allow-ref.js';
import { toBuildOptions } from '../../cli/build-options.js';
import { buildFlags, flagSettings } from '../../cli/config-flags.js';
import { MockCommand } from '../../cli/mock-command.js';
import { loadConfig } from '../../config/index.js';

export default class ContractDiffGeneratePatch extends MockCommand {
  static summary = 'Write the JSON Patch (RFC 6902) that makes an OpenAPI description accept the captured traffic it does not.';

  static description = [
    'Analyses --request-path as mock contract-diff analyze does, then corrects the description where each mismatch was found:',
    'undeclared fields added, types, enums, bounds, patterns and formats widened, required fields and headers made optional, undocumented statuses, media types, methods and paths added.',
    'Each change goes where the schema lives: into the shared component a $ref names, not a copy. Applying the patch (mock contract-diff apply-patch) and analysing the same captures again finds no mismatch that a patch can correct;',
    'what it cannot correct (a body that is not JSON, a $ref into another file) is listed on stderr as notes.',
    'Writes the patch to --output atomically, or prints it. Exit codes: 0 when written (an empty list when nothing drifted); 2 when an input cannot be read (one line on stderr).',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %> --spec openapi.yaml --request-path captures.json --output fix.json',
    '<%= config.bin %> <%= command.id %> --spec openapi.yaml --request-path traffic.har > fix.json',
    '<%= config.bin %> <%= command.id %> --spec openapi.yaml --request-path recordings.db --output fix.json && <%= config.bin %> contract-diff apply-patch --spec openapi.yaml --patch fix.json --output openapi.yaml',
  ];

  static flags = {
    spec: buildFlags.spec,
    config: buildFlags.config,
    ...allowRefFlag,
    'request-path': Flags.string({
      description: 'The captures: a JSON file (one capture or a list), JSON Lines, a HAR file, a recordings database of mock serve --recorder, or a fixtures folder',
      helpValue: '<path>',
      required: true,
    }),
    output: Flags.string({ char: 'o', description: 'Where to write the patch (atomically) [default: stdout]', helpValue: '<path>' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ContractDiffGeneratePatch);
    const { generateCorrection } = await import('../../drift/patch/index.js');
    let patch;
    try {
      const resolved = loadConfig({ configPath: flags.config, flags: flagSettings({ spec: flags.spec }) });
      const build = toBuildOptions(resolved, allowedRefs(flags['allow-ref']));
      patch = await generateCorrection({ build, requestPath: path.resolve(flags['request-path']), shown: flags['request-path'] });
    } catch (e) {
      throw isMockError(e) ? new MockError(e.code, e.message, 2) : e;
    }
    const text = `${JSON.stringify(patch.operations, null, 2)}\n`;
    for (const note of patch.notes) process.stderr.write(`note: ${note}\n`);
    if (flags.output === undefined) {
      process.stdout.write(text);
      return;
    }
    try {
      writeWhole(flags.output, text);
    } catch (e) {
      throw new MockError('MOCK_ERR_FLAG_INVALID', `--output ${flags.output}: cannot write (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; pass a writable file path)`, 2);
    }
    process.stderr.write(`${flags.output}: ${patch.operations.length} operation(s)\n`);
  }
}
