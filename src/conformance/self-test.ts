import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { SpecInput } from '../../compiler/index.js';
import type { ApiAuthOptions, HttpVersion } from '../../runtime/index.js';
import type { EffectiveConfig } from '../config/index.js';
import type { ValidateFn } from './validators.js';

export interface SelfTestServer {
  url: string;
  /** Build warnings (examples that do not match their schema). */
  warnings: string[];
  /** Operation keys of the build, in order, and its compiled validators by export name (b0_0, r3_0_0 …). */
  operations: string[];
  validators: Record<string, ValidateFn>;
  /** Error log lines the server wrote while handling `METHOD url` (a 500's cause). */
  errorsFor(method: string, url: string): string[];
  stop(): Promise<void>;
}

/**
 * `--conformance-self-test`: builds the description into a temporary directory and serves it
 * in-process, as `mock serve` does, in enforce mode on a free loopback port. Configuration (status
 * of rejected requests, body limit, seed, template expansion) comes from mock.yaml and MOCK_*
 * like serve's; custom routes and per-route validation overrides are left out, so what is probed
 * is the description's mock. `apiAuth`: the credentials it accepts (mock.yaml's, or the probes'
 * sample credentials pinned so that the security probes meet a server that tells them apart).
 * `allowRefs`: --allow-ref, for the build. `httpVersion` '2': HTTP/2 (h2c) beside HTTP/1.1, through the HTTP/2 adapter.
 */
export async function startSelfTestServer(
  specs: SpecInput[],
  cwd: string,
  config: EffectiveConfig,
  apiAuth?: ApiAuthOptions,
  allowRefs?: string[],
  httpVersion?: HttpVersion,
): Promise<SelfTestServer> {
  const { build } = await import('../../compiler/index.js');
  const { runtimeRequire, startHttpServer } = await import('../../runtime/index.js');
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'mock-conformance-'));
  try {
    const built = await build({ specs, routes: [], outDir, name: 'conformance', cwd, allowRefs });
    const errors: Array<{ method?: string; url?: string; text: string }> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (line.trim() === '') continue;
          try {
            const entry = JSON.parse(line) as { level: number; msg?: string; method?: string; url?: string; err?: { message?: string; stack?: string } };
            if (entry.level >= 50) errors.push({ method: entry.method, url: entry.url, text: [entry.msg, entry.err?.stack ?? entry.err?.message].filter(Boolean).join(': ') });
          } catch {
            errors.push({ text: line });
          }
        }
        done();
      },
    });
    const logger = pino({ level: 'error' }, sink);
    const server = await startHttpServer({
      buildDir: built.dir,
      host: '127.0.0.1',
      port: 0,
      // the report reads what each refusal broke from the problem body's errors[]
      validation: { mode: 'enforce', aggregate_errors: true, validate_responses: false, status_code: config.validation.status_code, error_body: 'problem', overrides: {} },
      templateExpand: config.response_template_expand,
      seed: config.seed,
      maxBodyBytes: config.http.max_body_bytes,
      streams: config.http.streams,
      apiAuth,
      httpVersion,
      logger,
    });
    const module = server.engine.build;
    return {
      url: `http://127.0.0.1:${server.port}`,
      warnings: built.warnings,
      operations: module.operations.map((op) => op.key),
      validators: module.createValidators(runtimeRequire) as Record<string, ValidateFn>,
      errorsFor: (method, url) => errors.filter((e) => e.method === method && e.url === url.split('?')[0]).map((e) => e.text),
      async stop() {
        await server.close();
        rmSync(outDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(outDir, { recursive: true, force: true });
    throw e;
  }
}
