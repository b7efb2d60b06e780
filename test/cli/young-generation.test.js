// capYoungGeneration keeps V8's young generation within its cap under sustained allocation. Each
// case runs in a child process: the V8 flag it sets is process-wide.
import t from 'tap';
import { execFileSync } from 'node:child_process';

const script = `
import { getHeapSpaceStatistics } from 'node:v8';
import { capYoungGeneration } from ${JSON.stringify(new URL('../../dist/src/cli/young-generation.js', import.meta.url).href)};
const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
const cap = Number(process.argv[1]);
const stop = cap > 0 ? capYoungGeneration(cap * 1024 * 1024) : () => {};
// allocation with survivors, in slices so that the event loop turns: what makes V8 grow it
const kept = [];
let largest = 0;
const until = Date.now() + 2500;
while (Date.now() < until) {
  for (let i = 0; i < 5000; i++) {
    kept.push({ i, text: 'x'.repeat(i % 64) + i });
    if (kept.length > 2000) kept.shift();
  }
  largest = Math.max(largest, young());
  await new Promise((resolve) => setImmediate(resolve));
}
stop();
console.log(JSON.stringify({ largestMb: largest / 1048576 }));
`;

const largestMb = (capMb) => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script, String(capMb)], { encoding: 'utf8' })).largestMb;

t.test('uncapped, this load makes V8 grow the young generation past 8 MB', async (t) => {
  t.ok(largestMb(0) > 8);
});

t.test('capped at 8 MB, the same load leaves it at 8 MB at most', async (t) => {
  const largest = largestMb(8);
  t.ok(largest <= 8, `largest young generation: ${largest} MB`);
});

t.test("a size set on node's command line or in NODE_OPTIONS is the user's: no cap", async (t) => {
  const module = JSON.stringify(new URL('../../dist/src/cli/young-generation.js', import.meta.url).href);
  const ask = (execArgv, env) =>
    execFileSync(process.execPath, [...execArgv, '--input-type=module', '-e', `import { youngGenerationSetByUser } from ${module}; console.log(youngGenerationSetByUser())`], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...env } }).trim();
  t.equal(ask([], {}), 'false');
  t.equal(ask(['--max-semi-space-size=4'], {}), 'true');
  t.equal(ask([], { NODE_OPTIONS: '--max-semi-space-size=4' }), 'true');
});

t.test('mock serve restarts itself with a 64 MB semi-space ceiling where process.execve exists, once, and never over the user', async (t) => {
  const { relaunchFlags, RELAUNCH_MARKER } = await import('../../dist/src/cli/young-generation.js');
  const flags = ['--max-semi-space-size=64'];
  t.same(relaunchFlags(['serve', '--spec', 'api.yaml'], [], {}, true), flags);
  t.equal(relaunchFlags(['serve'], [], {}, false), undefined, 'no process.execve (Node 20): V8 keeps its own ceiling');
  t.equal(relaunchFlags(['build'], [], {}, true), undefined, 'only the server');
  t.equal(relaunchFlags(['serve', '--help'], [], {}, true), undefined);
  t.equal(relaunchFlags(['serve'], ['--max-semi-space-size=16'], {}, true), undefined, "the user's command line");
  t.equal(relaunchFlags(['serve'], [], { NODE_OPTIONS: '--max_semi_space_size=16' }, true), undefined, "the user's NODE_OPTIONS");
  t.equal(relaunchFlags(['serve'], flags, { [RELAUNCH_MARKER]: '1' }, true), undefined, 'already restarted');
});

t.test("after the restart the flag is mock's: the HTTP backend's size applies unless NODE_OPTIONS set one", async (t) => {
  const { youngGenerationSetByUser, RELAUNCH_MARKER } = await import('../../dist/src/cli/young-generation.js');
  t.equal(youngGenerationSetByUser(['--max-semi-space-size=64'], { [RELAUNCH_MARKER]: '1' }), false);
  t.equal(youngGenerationSetByUser(['--max-semi-space-size=64'], { [RELAUNCH_MARKER]: '1', NODE_OPTIONS: '--max-semi-space-size=32' }), true);
  t.equal(youngGenerationSetByUser(['--max-semi-space-size=64'], {}), true);
});
