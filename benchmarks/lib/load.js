// Load generation with autocannon, in this process, one target at a time.
import autocannon from 'autocannon';
import { UNIQUE } from './wrk.js';

/** Sends the scenario's request once and throws unless it answers with the expected status. */
export async function checkStatus(baseUrl, scenario) {
  const { path, method = 'GET', headers, body, status } = scenario;
  const response = await fetch(baseUrl + path, { method, headers, body });
  const text = await response.text();
  if (response.status !== status) {
    throw new Error(`${method} ${path}: expected ${status}, got ${response.status}: ${text.slice(0, 300)}`);
  }
}

/**
 * Runs an unmeasured warm-up (JIT, connection set-up, lazily built state), then the measured run.
 * Latencies are autocannon's, in whole milliseconds, over 2xx responses only.
 */
export async function measure(baseUrl, scenario, { connections, pipelining, duration, warmup }) {
  const { path, method = 'GET', headers, body } = scenario;
  // the marker of a request no other sent: autocannon replaces it per request
  const options = { url: baseUrl + path, method, headers, body, connections, pipelining, idReplacement: body?.includes(UNIQUE) === true };
  if (warmup > 0) await autocannon({ ...options, duration: warmup });
  const result = await autocannon({ ...options, duration });
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
