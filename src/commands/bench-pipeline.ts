import { Flags } from '@oclif/core';
import { MockCommand } from '../cli/mock-command.js';

export default class BenchPipeline extends MockCommand {
  static summary = 'Load test with HTTP/1.1 pipelining: many requests in flight on each connection.';

  static description = `Opens --connections plain-HTTP connections and writes --pipeline-depth requests on each without waiting for answers; every response that comes back (parsed off the stream by Content-Length or chunked framing, in order) is replaced by a new request, so the depth stays full. Latency runs from the write of each request to the end of its response, queueing behind earlier requests included.

The body is exactly --body-size bytes of --content-type: json {"data":"…"}, xml <data>…</data>, urlencoded data=…, multipart one form-data field "data". GET and HEAD requests have none. Requests go to the target URL's path.

Reports requests per second, p50/p95/p99 and the status distribution.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> --target http://127.0.0.1:3000/v1/pets --duration 20s',
    '<%= config.bin %> <%= command.id %> --target http://127.0.0.1:3000/ingest --content-type multipart --body-size 4KB --pipeline-depth 32 --connections 4',
    '<%= config.bin %> <%= command.id %> --target http://127.0.0.1:3000/health --method GET --json',
  ];

  static flags = {
    target: Flags.string({ description: 'URL to send the requests to (plain http://)', helpValue: '<url>', required: true }),
    method: Flags.string({ description: 'HTTP method', helpValue: '<method>', default: 'POST' }),
    'content-type': Flags.option({ description: 'Kind of body', options: ['json', 'xml', 'urlencoded', 'multipart'] as const, default: 'json' as const })(),
    'body-size': Flags.string({ description: 'Bytes of body per request: 512B, 1KB, 4KB, 1MB (1KB = 1024 bytes)', helpValue: '<size>', default: '1KB' }),
    'pipeline-depth': Flags.integer({ description: 'Requests in flight on each connection', min: 1, default: 16 }),
    connections: Flags.integer({ description: 'Connections, each pipelining --pipeline-depth requests', min: 1, default: 8 }),
    duration: Flags.string({ description: 'How long to send: seconds, or 30s, 2m, 1h', helpValue: '<duration>', default: '30s' }),
    header: Flags.string({ description: 'Extra header on every request: "Name: value" (or a JSON object); repeatable', helpValue: '<header>', multiple: true }),
    'max-error-rate': Flags.string({ description: 'Exit 1 when (network errors + 5xx responses) / requests is above this fraction (0..1)', helpValue: '<fraction>' }),
    workers: Flags.integer({ description: 'Worker threads generating the load [default: half the CPU cores, at least 1, at most --connections]', min: 1 }),
    timeout: Flags.string({ description: 'A request without a complete response after this long counts as an ETIMEDOUT error', helpValue: '<duration>', default: '30s' }),
    output: Flags.string({ char: 'o', description: 'Write the JSON report to this file', helpValue: '<file>' }),
    json: Flags.boolean({ description: 'Print the JSON report on stdout instead of the text summary' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(BenchPipeline);
    const { runPipelineBench } = await import('../bench/index.js');
    const report = await runPipelineBench(flags);
    if (!report.passed) {
      process.stderr.write(`mock bench-pipeline: error rate above --max-error-rate ${report.maxErrorRate}\n`);
      this.exit(1);
    }
    if (report.interrupted) this.exit(130);
  }
}
