import path from 'node:path';
import { Flags } from '@oclif/core';
import { allowRefFlag, allowedRefs } from '../cli/allow-ref.js';
import { toBuildOptions } from '../cli/build-options.js';
import { buildFlags, flagSettings } from '../cli/config-flags.js';
import { MockCommand } from '../cli/mock-command.js';
import { displayPath, loadConfig } from '../config/index.js';
import { writeAtomically } from '../data/output.js';

export default class VerifyMocks extends MockCommand {
  static summary = 'Check recorded traffic (mock serve --recorder) against the API descriptions: unmatched paths, undocumented statuses and fields, schema drift, coverage.';

  static description = [
    'Runs the newest recorded exchanges (--limit) through the server\'s own router and request validation, and holds each answer against the response the description documents for its status and content type.',
    'Reports unmatched paths, undocumented statuses and content types, undocumented response fields (properties the schema does not declare, even where additionalProperties allows them),',
    'schema drift (bodies that break their schema), request issues (not drift) and coverage of the operations.',
    'Exit 0; with --fail-on-drift, 1 when anything unmatched, undocumented or drifting was found.',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %> --spec api.yaml --capture-db recordings.db',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --capture-db recordings.db --limit 2000 --fail-on-drift --output drift-report.json',
    '<%= config.bin %> <%= command.id %> -c mock.yaml --fail-on-drift',
  ];

  static flags = {
    spec: buildFlags.spec,
    config: buildFlags.config,
    ...allowRefFlag,
    'capture-db': Flags.string({ description: 'Recordings database of mock serve --recorder [default: recorder.db_path of mock.yaml, else ./recordings.db]', helpValue: '<file>' }),
    limit: Flags.integer({ description: 'Check the newest this many recorded exchanges', min: 1, default: 500, helpValue: '<n>' }),
    'fail-on-drift': Flags.boolean({ description: 'Exit 1 when anything unmatched, undocumented or drifting was found' }),
    output: Flags.string({ description: 'Write the full report as JSON to this file', helpValue: '<report.json>' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(VerifyMocks);
    const resolved = loadConfig({ configPath: flags.config, flags: flagSettings({ spec: flags.spec }) });
    const captureDb = flags['capture-db'] === undefined ? resolved.config.recorder.db_path : path.resolve(flags['capture-db']);
    const build = toBuildOptions(resolved, allowedRefs(flags['allow-ref']));
    const { verifyMocks } = await import('../verify/run.js');
    const { formatSummary } = await import('../verify/report.js');
    const report = await verifyMocks({ build, captureDb, limit: flags.limit });
    if (flags.output !== undefined) writeAtomically(flags.output, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(formatSummary(report, displayPath(captureDb)));
    if (flags.output !== undefined) process.stderr.write(`mock: wrote the report to ${displayPath(flags.output)}\n`);
    if (flags['fail-on-drift'] && report.drift) this.exit(1);
  }
}
