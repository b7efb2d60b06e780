// Ratios against the baseline measured in the same run, the table, and the pass/fail targets.

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

/** targets: [{ target, minReqPerSecRatio }] → each with its measured ratio and whether it passes. */
export function checkTargets(rows, targets) {
  return targets.map(({ target, minReqPerSecRatio }) => {
    const measured = rows.find((row) => row.target === target)?.vsBaseline.reqPerSec ?? null;
    return { target, minReqPerSecRatio, measured, pass: measured !== null && measured >= minReqPerSecRatio };
  });
}

const times = (value) => (value === null ? '–' : `${value.toFixed(2)}×`);

export function printReport(rows, checks, baselineName) {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', `req/s vs ${baselineName}`, 'p50 vs', 'p99 vs'];
  const lines = rows.map((row) => [
    row.target,
    Math.round(row.reqPerSec).toLocaleString('en-US'),
    String(row.p50),
    String(row.p99),
    times(row.vsBaseline.reqPerSec),
    times(row.vsBaseline.p50),
    times(row.vsBaseline.p99),
  ]);
  printTable([header, ...lines]);

  console.log(`\ntargets (req/s relative to ${baselineName}):`);
  printTable(
    checks.map((check) => [
      check.pass ? 'PASS' : 'FAIL',
      check.target,
      `≥ ${check.minReqPerSecRatio.toFixed(2)}×`,
      `measured ${times(check.measured)}`,
    ]),
  );

  const troubled = rows.filter((row) => row.non2xx || row.errors || row.timeouts);
  for (const row of troubled) {
    console.log(`warning: ${row.target}: ${row.non2xx} non-2xx, ${row.errors} errors, ${row.timeouts} timeouts`);
  }
}

/** First column left-aligned (names), the rest right-aligned (numbers). */
function printTable(table) {
  const widths = table[0].map((_, i) => Math.max(...table.map((line) => line[i].length)));
  for (const line of table) {
    console.log(line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
  }
}
