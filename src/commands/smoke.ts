import { Flags } from '@oclif/core';
import { MockError } from '../../common/errors.js';
import { SmokeUnreachableError, differenceLine, isSmokeTest, problemLine, readFixtureDir, runSmoke, smokeJunit, type SmokeReport } from '../../common/fixtures/index.js';
import { fixtureFlags, fixtureSettings, requireFolder } from '../cli/fixture-options.js';
import { MockCommand } from '../cli/mock-command.js';
import { displayPath } from '../config/index.js';
import { emit } from '../data/output.js';

export default class Smoke extends MockCommand {
  static summary = 'Replay the smoke-test fixtures against a running server and compare its answers with the recordings.';

  static description = [
    'Sends the recorded request of every fixture marked metadata.smoke_test "true" (method, path, query, headers except [redacted] ones,',
    'body) to --target, one after another, and compares the answer: the status must be equal, the media type of Content-Type too when one',
    'was recorded, and the body: JSON field by field (every recorded field present with an equal value, a recorded uuid or date-time only',
    'needing one of its kind, extra fields allowed), any other body byte for byte. Exit 0 when all pass, 1 when one fails,',
    '2 when there is no smoke fixture. With --output the report (--format) goes to that file and the text report to stdout.',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --target http://127.0.0.1:8080',
    '<%= config.bin %> <%= command.id %> --format junit --output reports/smoke.xml',
    '<%= config.bin %> <%= command.id %> --format json --dir recordings -c staging/mock.yaml',
  ];

  static flags = {
    ...fixtureFlags,
    target: Flags.string({ description: 'Server to test [default: where mock serve of the configuration answers: http://127.0.0.1:<server.http_port>]', helpValue: '<url>' }),
    format: Flags.option({ description: 'Report format', options: ['text', 'json', 'junit'] as const, default: 'text' })(),
    output: Flags.string({ description: 'Write the report to this file (atomically) instead of stdout', helpValue: '<file>' }),
    timeout: Flags.integer({ description: 'Milliseconds one request may wait for its answer', default: 10_000, min: 1, helpValue: '<ms>' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Smoke);
    const settings = fixtureSettings(flags);
    requireFolder('smoke', settings.dir);
    const target = flags.target ?? settings.serverUrl;
    if (!/^https?:\/\//i.test(target) || !URL.canParse(target)) throw new MockError('MOCK_ERR_FLAG_INVALID', `mock smoke: --target ${target} is not an http(s) URL such as http://127.0.0.1:3000`);
    const { fixtures, problems } = readFixtureDir(settings.dir);
    for (const problem of problems) this.logToStderr(`mock: warning: ${problemLine(problem, displayPath(problem.file))} (not a fixture: skipped)`);

    let report: SmokeReport;
    try {
      report = await runSmoke(fixtures, target, { timeoutMs: flags.timeout });
    } catch (e) {
      if (!(e instanceof SmokeUnreachableError)) throw e;
      throw new MockError('MOCK_ERR_SMOKE_UNREACHABLE', `mock smoke: cannot reach ${e.url} (${e.code}): start the server (mock serve) or point --target at a running one`);
    }
    const formatted = flags.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : flags.format === 'junit' ? smokeJunit(report) : textReport(report);
    await emit(formatted, flags.output);
    if (flags.output !== undefined) process.stdout.write(textReport(report));
    if (report.summary.total === 0) {
      const smokeless = fixtures.filter((file) => !isSmokeTest(file.fixture)).length;
      throw new MockError(
        'MOCK_ERR_SMOKE_NONE',
        `mock smoke: no fixture below ${displayPath(settings.dir)}/http is a smoke test (${smokeless} other ${smokeless === 1 ? 'fixture' : 'fixtures'}): set metadata.smoke_test to "true" in those to run, or import a HAR with --smoke`,
        2,
      );
    }
    if (report.summary.failed > 0) this.exit(1);
  }
}

/** One line per fixture, the differences of a failure below it, and the counts. */
function textReport(report: SmokeReport): string {
  const lines: string[] = [];
  for (const result of report.results) {
    const status = result.status.actual === null ? 'no answer' : String(result.status.actual);
    lines.push(`${result.passed ? 'pass' : 'FAIL'} ${result.method} ${result.path} ${JSON.stringify(result.name)} ${status} (${result.duration_ms} ms)`);
    if (result.error !== undefined) lines.push(`     ${result.error}`);
    for (const difference of result.differences) lines.push(`     ${differenceLine(difference)}`);
  }
  const { total, passed, failed, duration_ms } = report.summary;
  lines.push(`mock smoke: ${total} ${total === 1 ? 'fixture' : 'fixtures'} against ${report.target}: ${passed} passed, ${failed} failed (${duration_ms} ms)`);
  return `${lines.join('\n')}\n`;
}
