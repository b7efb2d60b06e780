import { Flags, type Interfaces } from '@oclif/core';
import { allowRefFlag, allowedRefs } from '../cli/allow-ref.js';
import { MockCommand } from '../cli/mock-command.js';
import { SCENARIO_DESCRIPTIONS, SCENARIOS } from '../bench/scenarios.js';
import { EXPORT_FORMATS } from '../bench/locust-export.js';

/** Every flag of `mock bench`, parsed: what the conformance module receives. */
export type BenchCommandFlags = Interfaces.InferredFlags<(typeof Bench)['flags']>;

export default class Bench extends MockCommand {
  static summary = 'Load test an API from its description: valid requests for every operation, sent by virtual users from worker threads.';

  static description = `Builds a request plan from the description (8 valid requests per operation, made with the server's own generators) and sends it to --target (or every URL of --targets-file) for --duration with --vus virtual users. A virtual user is one keep-alive connection with one request in flight; the next request goes out when the response is complete. The users run in worker threads (--workers).

Scenarios (--vus is always the peak):
${SCENARIOS.map((s) => `  ${s.padEnd(8)} ${SCENARIO_DESCRIPTIONS[s]}`).join('\n')}

Reports requests per second, latency percentiles (p50/p95/p99/max, merged across workers), the status distribution and errors per operation. Errors are network errors (refused, reset, timed out, malformed responses) plus 5xx responses; --max-error-rate makes the run exit 1 when their share of requests is above the given fraction. A progress line shows on a terminal (stderr); --json prints the report as JSON, --output writes it to a file. Ctrl-C stops the run and reports what was measured.

--export locust writes the same plan and scenario as a locustfile, to run on Locust's master/worker mode across machines (docs/distributed-load.md).

--conformance runs the conformance probes instead of a load test; --conformance-self-test does so against a \`mock serve\` of the same description started in-process.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> --spec api.yaml --target http://127.0.0.1:3000 --duration 30s --vus 50',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --target http://127.0.0.1:3000 --scenario ramp-up --duration 2m --rps 500 --json > report.json',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --target https://staging.example.com --insecure --auth bearer:$TOKEN --operations listPets,"GET /v1/pets/{petId}"',
    '<%= config.bin %> <%= command.id %> --spec-dir specs/ --targets-file targets.txt --max-concurrency 4 --rounds 3 --keep-rounds --output bench.json',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --target http://127.0.0.1:3000 --max-error-rate 0.01 --duration 1m',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --generate-only --output plan.jsonl',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --conformance-self-test --conformance-http2',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --export locust --scenario ramp-up --vus 200 --duration 10m --output locustfile.py',
  ];

  static flags = {
    spec: Flags.string({ description: 'API description (OpenAPI 3.x or Swagger 2.0, JSON or YAML) as a file or URL; repeatable', helpValue: '<path|url>', multiple: true }),
    'spec-dir': Flags.string({ description: 'Folder whose every .yaml, .yml and .json file is a description to load test', helpValue: '<dir>' }),
    ...allowRefFlag,
    target: Flags.string({ description: 'Base URL to send the requests to; its path, if any, goes before every request path', helpValue: '<url>' }),
    'targets-file': Flags.string({ description: 'File with one target URL per line (# comments); each target gets the full load', helpValue: '<file>' }),
    duration: Flags.string({ description: 'How long each round sends: seconds, or 30s, 2m, 1h', helpValue: '<duration>', default: '60' }),
    vus: Flags.integer({ description: 'Virtual users: concurrent requests in flight per target, across workers (the peak for shaped scenarios)', min: 1, default: 10 }),
    scenario: Flags.option({ description: 'How many virtual users are active over time', options: SCENARIOS, default: 'constant' as const })(),
    operations: Flags.string({ description: 'Only these operations: comma-separated operationIds or "METHOD /path" (path as written or as mounted)', helpValue: '<list>' }),
    'base-path': Flags.string({ description: "Mount the description's paths under this prefix instead of its servers URL path (/ for none)", helpValue: '<path>' }),
    auth: Flags.string({ description: 'Credentials on every request: bearer:<token>, basic:<user>:<password>, apikey:<value> (where the description puts its API key), or a raw Authorization header value', helpValue: '<auth>' }),
    headers: Flags.string({ description: 'Extra header on every request: "Name: value" or a JSON object of names to values; repeatable', helpValue: '<header>', multiple: true }),
    rps: Flags.string({ description: 'Cap on requests per second per target (split evenly across workers) [default: no cap]', helpValue: '<n>' }),
    cps: Flags.string({ description: 'Cap on new connections per second per target [default: no cap]', helpValue: '<n>' }),
    'max-error-rate': Flags.string({ description: 'Exit 1 when (network errors + 5xx responses) / requests is above this fraction (0..1) for any target', helpValue: '<fraction>' }),
    'generate-only': Flags.boolean({ description: 'Write the request plan (JSON lines) to --output or stdout and send nothing' }),
    export: Flags.option({
      description: 'Write a load test for another engine to --output or stdout and send nothing: locust = a locustfile with the plan\'s requests and --scenario as a LoadTestShape (--vus, --duration), for Locust\'s master/worker mode [--seed default: 1]',
      options: EXPORT_FORMATS,
      exclusive: ['generate-only', 'conformance', 'conformance-self-test'],
    })(),
    'max-concurrency': Flags.integer({ description: 'Targets of --targets-file load tested at the same time', min: 1, default: 10 }),
    insecure: Flags.boolean({ description: 'Accept any TLS certificate on https:// targets' }),
    rounds: Flags.integer({ description: 'Run the whole test this many times; the report adds the rounds up [default: 1, or as many as fit --repeat-until]', min: 1 }),
    'repeat-until': Flags.string({ description: 'Run rounds until this ISO 8601 time, or for this duration (e.g. 1h); the last round is shortened to end on time', helpValue: '<time|duration>' }),
    'keep-rounds': Flags.boolean({ description: 'Also report each round on its own' }),
    workers: Flags.integer({ description: 'Worker threads generating the load [default: half the CPU cores, at least 1, at most --vus]', min: 1 }),
    timeout: Flags.string({ description: 'A request without a complete response after this long counts as an ETIMEDOUT error', helpValue: '<duration>', default: '30s' }),
    seed: Flags.integer({ description: 'Seed for the generated request values [default: random]' }),
    'sample-answers': Flags.boolean({
      description: 'Keep a uniform sample of the answers (100 per operation, worker and round) and check it against the description after each round; --no-sample-answers sends without it',
      default: true,
      allowNo: true,
    }),
    output: Flags.string({
      char: 'o',
      description: 'Write the JSON report (with --generate-only: the plan; with --export: the load test) to this file; conformance: the reports into this directory (or with this prefix), else into a temporary directory',
      helpValue: '<file>',
    }),
    json: Flags.boolean({ description: 'Print the JSON report on stdout instead of the text summary' }),
    conformance: Flags.boolean({ description: 'Run the conformance probes against --target instead of a load test' }),
    'conformance-self-test': Flags.boolean({ description: 'Start a `mock serve` of the description in-process and run the conformance probes against it; exits 1 on a finding (missed negatives are not findings)' }),
    'conformance-http2': Flags.boolean({
      description: 'The conformance probes speak HTTP/2 (h2c by prior knowledge on http://, h2 by ALPN on https://); with --conformance-self-test the mock serves HTTP/2 beside HTTP/1.1',
    }),
    'conformance-header': Flags.string({ description: 'Header sent with every conformance request ("Name: value"); repeatable', helpValue: '<header>', multiple: true }),
    'report-missed-cap': Flags.integer({ description: 'Rows of the missed-negatives table in the HTML conformance report (0 for none)', min: 0, default: 200 }),
    'inject-response-violations': Flags.boolean({ description: 'Conformance: check that the response validator catches a deliberately corrupted copy of each response (client side; implies --validate-response-schemas)' }),
    'validate-response-schemas': Flags.boolean({ description: 'Conformance: validate response bodies against their schemas' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Bench);
    // the conformance modes share the flags but are another program
    if (flags.conformance || flags['conformance-self-test']) return this.conformance(flags);

    const { runBench } = await import('../bench/index.js');
    const report = await runBench(flags);
    if (report === undefined) return; // --generate-only
    if (!report.passed) {
      const over = report.targets.filter((t) => t.errorRate > (report.maxErrorRate ?? 1));
      process.stderr.write(
        `mock bench: error rate above --max-error-rate ${report.maxErrorRate}: ${over.map((t) => `${t.target} ${(t.errorRate * 100).toFixed(2)}%`).join(', ')}\n`,
      );
      this.exit(1);
    }
    if (report.interrupted) this.exit(130);
  }

  private async conformance(flags: BenchCommandFlags): Promise<void> {
    const { runConformance } = await import('../conformance/index.js');
    const { parseHeaders, specSources } = await import('../bench/plan.js');
    const { parseDuration } = await import('../bench/units.js');
    const cwd = process.cwd();
    const code = await runConformance({
      specs: specSources(flags.spec ?? [], flags['spec-dir'], cwd).map((source) => ({ source })),
      cwd,
      allowRefs: allowedRefs(flags['allow-ref'], cwd),
      target: flags.target,
      selfTest: flags['conformance-self-test'],
      headers: parseHeaders(flags.headers ?? []),
      auth: flags.auth,
      conformanceHeader: flags['conformance-header'],
      reportMissedCap: flags['report-missed-cap'],
      injectResponseViolations: flags['inject-response-violations'],
      validateResponseSchemas: flags['validate-response-schemas'],
      output: flags.output,
      json: flags.json,
      operations: (flags.operations ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      basePath: flags['base-path'],
      seed: flags.seed,
      timeoutMs: parseDuration(flags.timeout, '--timeout'),
      http2: flags['conformance-http2'],
    });
    if (code !== 0) this.exit(code);
  }
}
