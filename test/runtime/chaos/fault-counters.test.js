// runtime/chain/chaos fault counters: totals per kind for the Chaos API, listeners for Prometheus.
import t from 'tap';
import { FAULT_KINDS, FaultCounters } from '../../../dist/runtime/chain/chaos/index.js';

t.test('counts per kind, every kind listed', async (t) => {
  const counters = new FaultCounters();
  t.same(counters.snapshot(), { total_faults: 0, by_type: Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) });
  t.equal(FAULT_KINDS.length, 13);
  counters.add('http_error');
  counters.add('http_error');
  counters.add('tcp_reset');
  t.equal(counters.total, 3);
  const { total_faults, by_type } = counters.snapshot();
  t.same([total_faults, by_type.http_error, by_type.tcp_reset, by_type.latency], [3, 2, 1, 0]);
  by_type.http_error = 99;
  t.equal(counters.snapshot().by_type.http_error, 2, 'a snapshot is a copy');
});

t.test('listeners hear each fault until stopped; reset keeps them', async (t) => {
  const counters = new FaultCounters();
  const heard = [];
  const stop = counters.onAdd((kind) => heard.push(kind));
  counters.add('timeout');
  counters.reset();
  t.equal(counters.total, 0);
  t.equal(counters.snapshot().by_type.timeout, 0);
  counters.add('rate_limited');
  stop();
  counters.add('latency');
  t.same(heard, ['timeout', 'rate_limited']);
  t.equal(counters.total, 2);
});
