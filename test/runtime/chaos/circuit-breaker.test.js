// runtime/chain/chaos circuit breaker: every transition on a fake clock, probes in flight, snapshots.
import t from 'tap';
import { CircuitBreaker } from '../../../dist/runtime/chain/chaos/index.js';

const START = Date.UTC(2025, 0, 1);
const iso = (ms) => new Date(START + ms).toISOString();

function breaker(o = {}) {
  const clock = { ms: START };
  const b = new CircuitBreaker({ failureThreshold: 3, successThreshold: 2, timeoutMs: 1000, now: () => clock.ms, ...o });
  const at = (ms) => (clock.ms = START + ms);
  /** admit, then record the outcome: true for a request that failed. */
  const call = (failed) => {
    const admitted = b.admit();
    if (admitted) b.record(failed);
    return admitted;
  };
  return { b, at, call };
}

t.test('closed → open after failureThreshold consecutive failures; a success resets the count', async (t) => {
  const { b, call } = breaker();
  t.equal(b.state, 'closed');
  call(true);
  call(true);
  call(false);
  t.equal(b.snapshot().consecutive_failures, 0, 'a success in between starts over');
  call(true);
  call(true);
  t.equal(b.state, 'closed', 'two in a row: still closed');
  call(true);
  t.equal(b.state, 'open');
  t.same(b.snapshot(), { state: 'open', consecutive_failures: 3, consecutive_successes: 0, opened_at: iso(0), next_attempt_at: iso(1000), trips: 1, rejected: 0 });
});

t.test('open refuses until timeoutMs has passed, then half-open without a request to notice', async (t) => {
  const { b, at, call } = breaker();
  at(100);
  [1, 2, 3].forEach(() => call(true));
  at(1099);
  t.notOk(b.admit());
  t.notOk(b.admit());
  t.equal(b.snapshot().rejected, 2);
  at(1100);
  t.equal(b.state, 'half_open', 'the timeout counts from when it opened');
  t.same(b.snapshot(), { state: 'half_open', consecutive_failures: 0, consecutive_successes: 0, opened_at: iso(100), next_attempt_at: null, trips: 1, rejected: 2 });
});

t.test('half-open admits at most successThreshold probes at a time; their successes close it', async (t) => {
  const { b, at, call } = breaker({ successThreshold: 2 });
  [1, 2, 3].forEach(() => call(true));
  at(1000);
  t.ok(b.admit(), 'probe 1');
  t.ok(b.admit(), 'probe 2');
  t.notOk(b.admit(), 'a third waits for one to end');
  b.record(false);
  t.equal(b.state, 'half_open', 'one success of two');
  t.ok(b.admit(), 'a probe ended: room for another');
  b.record(false);
  t.equal(b.state, 'closed', 'two consecutive successes');
  t.same(b.snapshot(), { state: 'closed', consecutive_failures: 0, consecutive_successes: 2, opened_at: null, next_attempt_at: null, trips: 1, rejected: 1 });
  t.ok(b.admit() && b.admit() && b.admit(), 'closed: no limit');
});

t.test('a failed probe opens it again and restarts the timeout', async (t) => {
  const { b, at, call } = breaker();
  [1, 2, 3].forEach(() => call(true));
  at(1000);
  t.ok(call(false), 'one probe succeeds');
  at(1500);
  t.ok(call(true), 'the next fails');
  t.equal(b.state, 'open');
  t.same(b.snapshot(), { state: 'open', consecutive_failures: 1, consecutive_successes: 0, opened_at: iso(1500), next_attempt_at: iso(2500), trips: 2, rejected: 0 });
  at(2000);
  t.notOk(b.admit(), 'the first timeout would have ended here; the new one has not');
  at(2500);
  t.equal(b.state, 'half_open');
});

t.test('outcomes of requests admitted before the trip are ignored', async (t) => {
  const { b, at } = breaker({ failureThreshold: 1, successThreshold: 1 });
  t.ok(b.admit());
  t.ok(b.admit(), 'slow request admitted while closed');
  b.record(true);
  t.equal(b.state, 'open');
  b.record(false);
  t.equal(b.snapshot().consecutive_successes, 0, 'its success while open changes nothing');
  at(1000);
  t.ok(b.admit(), 'probe');
  b.record(false);
  t.equal(b.state, 'closed');
  // half-open with no probe in flight: an outcome from before is not a probe's
  t.ok(b.admit());
  b.record(true);
  at(2000);
  t.equal(b.state, 'half_open');
  b.record(false);
  t.equal(b.state, 'half_open', 'no probe was in flight');
});

t.test('thresholds are checked', async (t) => {
  const now = () => 0;
  t.throws(() => new CircuitBreaker({ failureThreshold: 0, successThreshold: 1, timeoutMs: 1, now }), /failureThreshold >= 1/);
  t.throws(() => new CircuitBreaker({ failureThreshold: 1, successThreshold: 1.5, timeoutMs: 1, now }), /successThreshold >= 1/);
  t.throws(() => new CircuitBreaker({ failureThreshold: 1, successThreshold: 1, timeoutMs: -1, now }), /timeoutMs >= 0/);
});
