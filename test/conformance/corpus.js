// The self-test over the shared corpus, in-process (one process per test file, so the compiler
// and server are loaded once): every description's `mock serve`, in enforce mode, passes its own
// conformance self-test: no 5xx, no valid request rejected, 2xx bodies matching their schemas.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { corpus, tmpdir } from '../helpers/cli.js';
import { runConformance } from '../../dist/src/conformance/index.js';

export const dir = path.join(corpus, 'openapi');
export const files = readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();

/**
 * The five largest: test/e2e/corpus.test.js leaves them to the self-test (building them twice would
 * double most of its time), so self-test-corpus-http2.test.js also probes them over HTTP/2.
 */
export const LARGEST = ['discord.json', 'docker-engine.yaml', 'openai.yaml', 'slack-web-api.json', 'twilio-api-v2010.json'];

/** The two heaviest descriptions run in one file, the rest in the other: about equal halves (tap runs files in parallel). */
export const HEAVY = ['discord.json', 'openai.yaml'];

/**
 * Positives the generator cannot satisfy (see test/e2e/corpus.test.js): they must be reported as
 * skipped with the validator's reason, never sent as valid.
 */
export const UNSATISFIABLE = new Set(['openai.yaml POST /v1/images/edits']);

/** `http2`: the probes speak HTTP/2 (h2c) to the mock's HTTP/2 adapter (--conformance-http2). */
export function selfTestCorpus(t, list, { http2 = false } = {}) {
  for (const file of list) {
    t.test(`${file}${http2 ? ' over HTTP/2' : ''}`, async (t) => {
      const out = tmpdir();
      // streamed answers (docker-engine's GET /events, openai's event streams) item after item without
      // the default second between items: each probe reads its five items in 4 s otherwise, most of
      // docker-engine's time, and the same items are checked either way
      writeFileSync(path.join(out, 'mock.yaml'), 'http:\n  streams: { interval_ms: 10 }\n');
      let text = '';
      const started = Date.now();
      const code = await runConformance({
        specs: [{ source: path.join(dir, file) }],
        cwd: out,
        selfTest: true,
        headers: {},
        reportMissedCap: 200,
        validateResponseSchemas: true,
        injectResponseViolations: true,
        json: false,
        output: 'report/',
        // a probe that got no answer fails below: do not wait 10 s for it
        timeoutMs: 3000,
        http2,
        write: (s) => (text += s),
      });
      const report = JSON.parse(readFileSync(path.join(out, 'report', 'conformance-report.json'), 'utf8'));
      const s = report.summary;
      t.comment(`${file}: ${s.operations} operations, ${s.probes} probes, ${Date.now() - started} ms`);
      const findings = report.probes.filter((p) => p.verdict === 'server_error' || p.verdict === 'valid_request_rejected').map((p) => `${p.verdict} ${p.label} ${p.operation} -> ${p.status} ${p.response?.excerpt ?? ''}`);
      t.same(findings, [], 'no 5xx, no valid request rejected');
      const mismatches = report.probes.filter((p) => p.responseCheck?.mismatch).map((p) => `${p.operation} ${p.label}: ${p.responseCheck.mismatch}`);
      t.same(mismatches, [], '2xx bodies match their schemas');
      t.equal(report.responseChecks.injected?.undetected ?? 0, 0, 'every injected response violation is caught');
      const skipped = report.probes.filter((p) => p.verdict === 'skipped').map((p) => `${file} ${p.operation}`);
      t.same(skipped, [...UNSATISFIABLE].filter((k) => k.startsWith(`${file} `)), 'only the known-unsatisfiable positives are skipped');
      t.equal(s.verdicts.no_response, 0, 'every probe gets an answer');
      t.equal(s.verdicts.pass + s.verdicts.missed_negative + s.verdicts.unexpected_status + s.verdicts.no_response + s.verdicts.skipped, s.probes);
      t.equal(code, 0, text);
    });
  }
}
