// runtime/control/metrics/resource-sampler.ts: memory and CPU samples over time.
import t from 'tap';
import { ResourceSampler } from '../../../dist/runtime/control/metrics/index.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function checkSeries(t, series, name) {
  for (const point of series) {
    t.equal(point.length, 2, `${name}: pairs`);
    t.match(point[0], ISO, `${name}: ISO time`);
    t.equal(typeof point[1], 'number', `${name}: number`);
    t.ok(Number.isFinite(point[1]) && point[1] >= 0, `${name}: ${point[1]}`);
  }
}

t.test('one sample from the start, then one per interval', async (t) => {
  const sampler = new ResourceSampler({ intervalMs: 20 });
  t.equal(sampler.memoryOverTime().length, 1, 'never empty');
  t.equal(sampler.cpuOverTime().length, 1);
  sampler.start();
  sampler.start(); // idempotent: one timer
  // Keep the CPU busy for a while so the share is measurable.
  const until = Date.now() + 150;
  while (Date.now() < until);
  await new Promise((resolve) => setTimeout(resolve, 100));
  sampler.stop();
  const memory = sampler.memoryOverTime();
  const cpu = sampler.cpuOverTime();
  t.ok(memory.length >= 3, `${memory.length} samples`);
  t.equal(cpu.length, memory.length);
  checkSeries(t, memory, 'memory');
  checkSeries(t, cpu, 'cpu');
  t.ok(memory[0][1] > 1, 'resident set size in MB');
  t.ok(Date.parse(memory.at(-1)[0]) >= Date.parse(memory[0][0]), 'oldest first');
  t.ok(cpu.some(([, percent]) => percent > 10), 'a busy loop shows up as CPU use');
  t.equal(memory[0][1], Math.round(memory[0][1] * 100) / 100, 'two decimals');

  const count = sampler.memoryOverTime().length;
  await new Promise((resolve) => setTimeout(resolve, 60));
  t.equal(sampler.memoryOverTime().length, count, 'stop() stops sampling');
});

t.test('keeps the last `capacity` samples', async (t) => {
  let now = Date.parse('2024-05-01T12:00:00.000Z');
  const sampler = new ResourceSampler({ intervalMs: 5, capacity: 3, now: () => (now += 1000) });
  sampler.start();
  await new Promise((resolve) => setTimeout(resolve, 80));
  sampler.stop();
  const times = sampler.memoryOverTime().map(([time]) => time);
  t.equal(times.length, 3);
  t.not(times[0], '2024-05-01T12:00:01.000Z', 'the oldest were dropped');
  t.same([...times].sort(), times);
});

t.test('current(): memory now, CPU since the previous sample', async (t) => {
  // compared with the process's own accounting over the same span, so a busy machine (the CPU
  // this process gets) does not decide the outcome
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const sampler = new ResourceSampler();
  const until = Date.now() + 50;
  while (Date.now() < until);
  const usage = sampler.current();
  const cpu = process.cpuUsage(cpuBefore);
  const expected = ((cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore)) * 100;
  t.same(Object.keys(usage).sort(), ['cpu_usage_percent', 'memory_usage_mb']);
  t.ok(usage.memory_usage_mb > 1);
  t.ok(usage.cpu_usage_percent > 0, `a busy 50 ms since the sample: ${usage.cpu_usage_percent} %`);
  t.ok(Math.abs(usage.cpu_usage_percent - expected) < 25, `${usage.cpu_usage_percent} % is what the process used: ${expected.toFixed(1)} %`);
  t.ok(usage.cpu_usage_percent < 400);
});

t.test('the default timer does not keep the process alive', async (t) => {
  const sampler = new ResourceSampler();
  sampler.start();
  t.pass('tap would time out otherwise');
});
