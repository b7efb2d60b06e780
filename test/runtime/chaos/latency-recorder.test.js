// runtime/chain/chaos latency recorder: the last samples for the Chaos API and their statistics.
import t from 'tap';
import { LatencyRecorder } from '../../../dist/runtime/chain/chaos/index.js';

const START = Date.UTC(2025, 5, 1);

t.test('nothing recorded: all zeros', async (t) => {
  const recorder = new LatencyRecorder();
  t.same(recorder.samples(), []);
  t.same(recorder.stats(), { avg_latency_ms: 0, min_latency_ms: 0, max_latency_ms: 0, total_requests: 0, p50_ms: 0, p95_ms: 0, p99_ms: 0 });
});

t.test('the last 100 samples, oldest first, with their time', async (t) => {
  const clock = { ms: START };
  const recorder = new LatencyRecorder({ now: () => clock.ms });
  for (let i = 1; i <= 150; i++) {
    clock.ms = START + i * 1000;
    recorder.record(i);
  }
  const samples = recorder.samples();
  t.equal(samples.length, 100);
  t.same(samples[0], { timestamp: new Date(START + 51_000).toISOString(), latency_ms: 51 });
  t.same(samples[99], { timestamp: new Date(START + 150_000).toISOString(), latency_ms: 150 });
  t.same(recorder.stats(), { avg_latency_ms: 75.5, min_latency_ms: 1, max_latency_ms: 150, total_requests: 150, p50_ms: 75, p95_ms: 143, p99_ms: 149 });
  const three = new LatencyRecorder({ keep: 3, now: () => START });
  [5, 6, 7, 8].forEach((ms) => three.record(ms));
  t.same(three.samples().map((s) => s.latency_ms), [6, 7, 8], 'keep: 3');
});

t.test('percentiles over the last 1000 samples, the rest over everything', async (t) => {
  const recorder = new LatencyRecorder({ now: () => START });
  for (let i = 0; i < 4000; i++) recorder.record(5000);
  for (let i = 1000; i >= 1; i--) recorder.record(i);
  t.same(recorder.stats(), {
    avg_latency_ms: (4000 * 5000 + 500_500) / 5000,
    min_latency_ms: 1,
    max_latency_ms: 5000,
    total_requests: 5000,
    p50_ms: 500,
    p95_ms: 950,
    p99_ms: 990,
  });
  recorder.reset();
  t.same(recorder.samples(), []);
  t.equal(recorder.stats().total_requests, 0);
  recorder.record(7);
  t.same(recorder.stats(), { avg_latency_ms: 7, min_latency_ms: 7, max_latency_ms: 7, total_requests: 1, p50_ms: 7, p95_ms: 7, p99_ms: 7 }, 'nothing from before the reset');
});
