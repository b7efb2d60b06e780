import type { SpecInput } from '../../compiler/index.js';

/** What `mock bench --conformance` / `--conformance-self-test` hands the conformance driver. */
export interface ConformanceOptions {
  /** The descriptions to probe (as `mock build` takes them). */
  specs: SpecInput[];
  /** What relative spec paths, `output` and mock.yaml lookup resolve against. */
  cwd: string;
  /** --allow-ref: absolute folders and URL prefixes outside the project that external $refs may read. */
  allowRefs?: string[];
  /** Base URL of the server under test (`--target`); ignored with `selfTest`, required without. */
  target?: string;
  /** `--conformance-self-test`: build and serve the same description in-process (enforce mode) and probe that. */
  selfTest: boolean;
  /** Sent with every probe (`--headers`); security probes take credential headers out. */
  headers: Record<string, string>;
  /**
   * `--auth` as `mock bench` reads it (bearer:TOKEN, basic:USER:PASSWORD, apikey:VALUE placed where
   * the operation's apiKey scheme says, or a raw Authorization value): applied to every probe but
   * the security probes, which send bad credentials or none.
   */
  auth?: string;
  /** `--conformance-header "Name: value"` (repeatable): added to every probe, after all other headers. */
  conformanceHeader?: string | string[];
  /** Rows of the HTML missed-negatives table (`--report-missed-cap`, default 200; 0 leaves the table out). */
  reportMissedCap: number;
  /** `--inject-response-violations`: corrupt a copy of each checked response and make sure the validator rejects it (implies response validation). */
  injectResponseViolations: boolean;
  /** `--validate-response-schemas`: check every 2xx JSON body against its documented schema. */
  validateResponseSchemas: boolean;
  /**
   * Where the reports go (`--output`): a directory (existing, or written with a trailing slash) gets
   * conformance-report.json, conformance-report.html and conformance-issues.json; anything else is
   * a prefix: `x` or `x.json` gives x.json, x.html and x.issues.json. Default: a fresh temporary
   * directory, named in the summary.
   */
  output?: string;
  /** `--json`: print the summary as one JSON object instead of text. */
  json: boolean;
  /** `--operations`: operationIds or `METHOD /path` keys to probe (default: all). */
  operations?: string[];
  /** `--base-path`: the path the description is mounted under on the target (overrides its servers URL). */
  basePath?: string;
  /** Merge identical server-side violation entries; default: `conformance.buffer_unique` (MOCK_CONFORMANCE_BUFFER_UNIQUE, true). */
  bufferUnique?: boolean;
  /**
   * `--conformance-http2`: the probes speak HTTP/2 (h2c by prior knowledge on http://, h2 by ALPN on
   * https://); the self-test's server serves HTTP/2 beside HTTP/1.1 (server.http_version 2).
   */
  http2?: boolean;
  /** Probes in flight at once (default 8). */
  concurrency?: number;
  /** Seed of the request generator (default 1: the same probes every run). */
  seed?: number;
  /** Per-request timeout in milliseconds (default 10000). */
  timeoutMs?: number;
  /** Where the summary is written (default process.stdout). */
  write?: (text: string) => void;
}
