// Ratios against the baseline measured in the same run, the table, the pass/fail targets, and the results file.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const resultsDir = new URL('../results/', import.meta.url);

const ratio = (value, base) => (base > 0 ? value / base : null);

/** Adds each row's ratios to the baseline row: throughput (higher is better), latency (lower is better). */
export function withRatios(rows, baseline) {
  return rows.map((row) => ({
    ...row,
    vsBaseline: {
      reqPerSec: ratio(row.reqPerSec, baseline.reqPerSec),
      p50: ratio(row.p50, baseline.p50),
      p99: ratio(row.p99, baseline.p99),
    },
  }));
}

export const median = (values) => {
  const sorted = values.filter((v) => v !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One row from the rounds of a target: the median of each number, the spread of throughput, the sums of failures. */
export function medianOf(samples) {
  const rates = samples.map((s) => s.reqPerSec);
  return {
    method: samples[0].method,
    path: samples[0].path,
    reqPerSec: median(rates),
    reqPerSecMin: Math.min(...rates),
    reqPerSecMax: Math.max(...rates),
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
    cpuUsPerRequest: median(samples.map((s) => s.cpuUsPerRequest ?? null)),
    // the main thread's share: the thread that answers
    mainCpuUsPerRequest: median(samples.map((s) => s.mainCpuUsPerRequest ?? null)),
    requests: samples.reduce((sum, s) => sum + s.requests, 0),
    non2xx: samples.reduce((sum, s) => sum + s.non2xx, 0),
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
    timeouts: samples.reduce((sum, s) => sum + s.timeouts, 0),
  };
}

/**
 * targets: [{ target, minReqPerSecRatio, against? }] → each with its measured throughput ratio (to
 * the baseline, or to the row named by `against`) and whether it passes.
 */
export function checkTargets(rows, targets) {
  const rate = (name) => rows.find((row) => row.target === name)?.reqPerSec ?? null;
  return targets.map(({ target, minReqPerSecRatio, against }) => {
    const value = rate(target);
    const measured = value === null ? null : against === undefined ? (rows.find((row) => row.target === target)?.vsBaseline.reqPerSec ?? null) : ratio(value, rate(against) ?? 0);
    return { target, against: against ?? null, minReqPerSecRatio, measured, pass: measured !== null && measured >= minReqPerSecRatio };
  });
}

const times = (value) => (value === null ? '–' : `${value.toFixed(2)}×`);

const millis = (value) => (value === null ? '–' : value < 10 ? value.toFixed(2) : value.toFixed(1));

/**
 * pairs: [{ target, against }] → each with how much of the server CPU `against` spends per request
 * `target` spends (against's µs ÷ target's µs: 1 costs the same, 0.5 twice as much), from the
 * median CPU per request (`field`: the whole server's, or mainCpuUsPerRequest, its answering thread's); null where a row has none.
 */
export function costRatios(rows, pairs, field = 'cpuUsPerRequest') {
  const cpu = (name) => rows.find((row) => row.target === name)?.[field] ?? null;
  return pairs.map(({ target, against }) => {
    const [mine, theirs] = [cpu(target), cpu(against)];
    return { target, against, ratio: mine === null || theirs === null ? null : ratio(theirs, mine) };
  });
}

export function printReport(rows, checks, baselineName, generatorName) {
  const cpu = rows.some((row) => row.cpuUsPerRequest != null);
  const header = ['target', 'req/s (median)', 'min–max', 'p50 ms', 'p99 ms', ...(cpu ? ['CPU µs/req'] : []), `req/s vs ${baselineName}`, 'p50 vs', 'p99 vs'];
  const lines = rows.map((row) => [
    row.target,
    Math.round(row.reqPerSec).toLocaleString('en-US'),
    `${Math.round(row.reqPerSecMin / 1000)}k–${Math.round(row.reqPerSecMax / 1000)}k`,
    millis(row.p50),
    millis(row.p99),
    ...(cpu ? [row.cpuUsPerRequest == null ? '–' : row.cpuUsPerRequest.toFixed(1)] : []),
    times(row.vsBaseline.reqPerSec),
    times(row.vsBaseline.p50),
    times(row.vsBaseline.p99),
  ]);
  printTable([header, ...lines]);

  console.log(`\ntargets (median req/s relative to ${baselineName} unless named; load by ${generatorName}):`);
  printTable(
    checks.map((check) => [
      check.pass ? 'PASS' : 'FAIL',
      check.target,
      `≥ ${check.minReqPerSecRatio.toFixed(2)}× ${check.against ?? baselineName}`,
      `measured ${times(check.measured)}`,
    ]),
  );

  const troubled = rows.filter((row) => row.non2xx || row.errors || row.timeouts);
  for (const row of troubled) {
    console.log(`warning: ${row.target}: ${row.non2xx} non-2xx, ${row.errors} errors, ${row.timeouts} timeouts`);
  }
}

/** First column left-aligned (names), the rest right-aligned (numbers). */
export function printTable(table) {
  const widths = table[0].map((_, i) => Math.max(...table.map((line) => line[i].length)));
  for (const line of table) {
    console.log(line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
  }
}

/**
 * Writes benchmarks/results/<name>-latest.json: the date, the machine (and its load average before
 * the run and now), then `fields`; prints where it went.
 */
export async function writeResults(name, fields, loadBefore) {
  await mkdir(resultsDir, { recursive: true });
  const file = new URL(`${name}-latest.json`, resultsDir);
  const environment = { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: cpus().length, cpu: cpus()[0]?.model, loadavgBefore: loadBefore, loadavgAfter: loadavg() };
  await writeFile(file, `${JSON.stringify({ date: new Date().toISOString(), environment, ...fields }, null, 2)}\n`);
  console.log(`\nwrote ${fileURLToPath(file).slice(fileURLToPath(new URL('../..', import.meta.url)).length)}`);
}
