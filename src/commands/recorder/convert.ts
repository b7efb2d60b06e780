import path from 'node:path';
import { Flags } from '@oclif/core';
import { MockCommand } from '../../cli/mock-command.js';
import { loadConfig } from '../../config/index.js';

export default class RecorderConvert extends MockCommand {
  static summary = 'Convert recordings of mock serve --recorder into fixture files (json) or mock.yaml custom routes (yaml).';

  static description = [
    'Reads the recordings database (--input, else recorder.db_path of mock.yaml) and converts one recording (--recording-id) or every one.',
    'json: fixture files in the fixture format (one per recording; repeats of a request numbered); yaml: a fragment of custom routes to merge into http.routes of mock.yaml (the newest answer of each request).',
    'Without --output, prints to stdout (json of every recording: an array of fixtures). Credentials were redacted when recorded.',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %> --recording-id 42',
    '<%= config.bin %> <%= command.id %> --recording-id 42 --format json --output fixtures/http/',
    '<%= config.bin %> <%= command.id %> --input recordings.db --format json --output fixtures/http',
    '<%= config.bin %> <%= command.id %> --format yaml --output recorded-routes.yaml',
  ];

  static flags = {
    'recording-id': Flags.integer({ description: 'The recording to convert (GET /__mock/api/recorder/recordings lists them) [default: every one]', min: 1, helpValue: '<id>' }),
    input: Flags.string({ description: 'Recordings database [default: recorder.db_path of mock.yaml, else ./recordings.db]', helpValue: '<file>' }),
    output: Flags.string({ description: 'File to write, or a folder for the suggested file name (json of every recording: one fixture file each) [default: stdout]', helpValue: '<file|dir>' }),
    format: Flags.option({ description: 'yaml: custom routes for mock.yaml; json: fixture files', options: ['yaml', 'json'] as const, default: 'yaml' })(),
    config: Flags.string({ char: 'c', description: 'Config file whose recorder.db_path is the default --input [default: the lookup of mock serve]', helpValue: '<path>' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RecorderConvert);
    const input = flags.input === undefined ? loadConfig({ configPath: flags.config, flags: [] }).config.recorder.db_path : path.resolve(flags.input);
    const { convertRecordings } = await import('../../recorder/convert.js');
    await convertRecordings({ input, recordingId: flags['recording-id'], output: flags.output, format: flags.format });
  }
}
