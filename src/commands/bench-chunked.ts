import { Flags } from '@oclif/core';
import { allowRefFlag } from '../cli/allow-ref.js';
import { MockCommand } from '../cli/mock-command.js';

export default class BenchChunked extends MockCommand {
  static summary = 'Load test with request bodies sent in Transfer-Encoding: chunked framing.';

  static description = `Each of --concurrency slots keeps one keep-alive connection and sends one request at a time whose body (exactly --total-size-bytes) goes out as chunks of --chunk-size-bytes; with --chunk-interval-ms the chunks are spread out in time, else the whole framed request is written at once. Latency runs from the first byte of the request to the end of the response.

The body: with a JSON Content-Type and --spec, a value generated from the request body schema of --endpoint (else of the first operation with a JSON request body), padded with trailing whitespace to the exact size, so it stays valid JSON that parses to the generated value; with a JSON Content-Type and no --spec, {"data":"…"} of the exact size; otherwise letters and digits. The Content-Type is the --header one, else the operation's JSON media type, else application/octet-stream. The request goes to the target URL (its path), or with --spec to the operation's path under it.

Reports requests per second, p50/p95/p99 and the status distribution.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> --target http://127.0.0.1:3000/upload --duration 30s',
    '<%= config.bin %> <%= command.id %> --target http://127.0.0.1:3000 --spec api.yaml --total-size-bytes 65536 --chunk-size-bytes 4096',
    '<%= config.bin %> <%= command.id %> --target http://127.0.0.1:3000/ingest --header "Content-Type: application/json" --chunk-interval-ms 10 --concurrency 4',
  ];

  static flags = {
    target: Flags.string({ description: 'URL to send the requests to', helpValue: '<url>' }),
    'targets-file': Flags.string({ description: 'File with one target URL per line (# comments); each target gets the full load', helpValue: '<file>' }),
    ...allowRefFlag,
    method: Flags.option({ description: 'HTTP method', options: ['POST', 'PUT', 'PATCH'] as const, default: 'POST' as const })(),
    concurrency: Flags.integer({ description: 'Requests in flight per target, each on its own connection', min: 1, default: 10 }),
    duration: Flags.string({ description: 'How long each round sends: seconds, or 30s, 2m, 1h', helpValue: '<duration>', default: '30s' }),
    'chunk-size-bytes': Flags.integer({ description: 'Bytes of body per chunk (the last one may be shorter)', min: 1, default: 1024 }),
    'total-size-bytes': Flags.integer({ description: 'Bytes of body per request', min: 1, default: 1048576 }),
    'chunk-interval-ms': Flags.integer({ description: 'Pause between chunks, in milliseconds (0: all at once)', min: 0, default: 0 }),
    header: Flags.string({ description: 'Extra header on every request: "Name: value" (or a JSON object); repeatable', helpValue: '<header>', multiple: true }),
    spec: Flags.string({ description: 'API description whose request body schema makes the JSON body', helpValue: '<path|url>' }),
    endpoint: Flags.string({ description: 'With --spec: the operation path (as written, or as mounted) whose body to send', helpValue: '<path>' }),
    rps: Flags.string({ description: 'Cap on requests per second per target [default: no cap]', helpValue: '<n>' }),
    cps: Flags.string({ description: 'Cap on new connections per second per target [default: no cap]', helpValue: '<n>' }),
    'max-concurrency': Flags.integer({ description: 'Targets of --targets-file load tested at the same time', min: 1, default: 10 }),
    'max-error-rate': Flags.string({ description: 'Exit 1 when (network errors + 5xx responses) / requests is above this fraction (0..1) for any target', helpValue: '<fraction>' }),
    rounds: Flags.integer({ description: 'Run the whole test this many times [default: 1, or as many as fit --repeat-until]', min: 1 }),
    'repeat-until': Flags.string({ description: 'Run rounds until this ISO 8601 time, or for this duration (e.g. 1h)', helpValue: '<time|duration>' }),
    'keep-rounds': Flags.boolean({ description: 'Also report each round on its own' }),
    insecure: Flags.boolean({ description: 'Accept any TLS certificate on https:// targets' }),
    workers: Flags.integer({ description: 'Worker threads generating the load [default: half the CPU cores, at least 1, at most --concurrency]', min: 1 }),
    timeout: Flags.string({ description: 'A request without a complete response after this long counts as an ETIMEDOUT error', helpValue: '<duration>', default: '30s' }),
    seed: Flags.integer({ description: 'Seed for the generated body [default: random]' }),
    output: Flags.string({ char: 'o', description: 'Write the JSON report to this file', helpValue: '<file>' }),
    json: Flags.boolean({ description: 'Print the JSON report on stdout instead of the text summary' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(BenchChunked);
    const { runChunkedBench } = await import('../bench/index.js');
    const report = await runChunkedBench(flags);
    if (!report.passed) {
      process.stderr.write(`mock bench-chunked: error rate above --max-error-rate ${report.maxErrorRate}\n`);
      this.exit(1);
    }
    if (report.interrupted) this.exit(130);
  }
}
