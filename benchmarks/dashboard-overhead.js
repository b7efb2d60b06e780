#!/usr/bin/env node
// Dashboard overhead benchmark (`npm run bench:dashboard`): the HTTP mock's throughput with the web
// dashboard's live log open in headless Chromium (stream subscribed, every entry delivered to the
// page) against the same browser on a blank page. wrk has no rate option, so both are measured at
// the mock's maximum throughput, the hardest case for the stream.
//
// `mock serve --admin` on examples/petstore.yaml runs pinned to core 0; wrk (1 thread, 50
// connections) and Chromium to core 1, so the page's own work competes with the load generator,
// never with the server, and what changes between the two is the server's work for the stream.
// Rounds alternate the two (ABAB…); the report gives medians and the ratio (target ≥ 0.95).
//
// Then the issue's own load, 1,000 req/s (autocannon's fixed rate, on core 1): the server's CPU
// time (/proc) with and without the page says what share of its core the dashboard's stream takes,
// which is the share of throughput it would cost a saturated mock; and the page's frames per second
// and long tasks (over 50 ms) while its log holds up to 10,000 entries.
// BENCH_DURATION=<seconds per measurement> (default 10), BENCH_ROUNDS (default 4). Needs wrk,
// taskset and /usr/bin/chromium. Exits 0 whatever the numbers; 1 when something fails to run.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { median } from './lib/report.js';
import { startServer } from './lib/servers.js';
import { runWrk, wrkAvailable } from './lib/wrk.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const duration = Number(process.env.BENCH_DURATION ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
if (!(duration > 0) || !(rounds > 0)) throw new Error('BENCH_DURATION and BENCH_ROUNDS must be positive numbers');
if (!wrkAvailable()) throw new Error('bench:dashboard needs wrk (apt-get install wrk)');
const scenario = { path: '/v1/pets/1' };
const connections = 50;

const scratch = await mkdtemp(`${tmpdir()}/mock-bench-dashboard-`);
process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
// Chromium and every process it starts run on core 1: pinned from the start by a wrapper, as affinity is inherited
const wrapper = `${scratch}/chromium`;
writeFileSync(wrapper, '#!/bin/sh\nexec taskset -c 1 /usr/bin/chromium "$@"\n');
chmodSync(wrapper, 0o755);

const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MOCK_')));
env.MOCK_LOG_LEVEL = 'warn';
const args = [`${root}bin/run.js`, 'serve', '--spec', `${root}examples/petstore.yaml`, '--out', `${scratch}/out`, '--host', '127.0.0.1', '--http-port', '0', '--admin', '--admin-port', '0'];
const server = await startServer('mock serve --admin', args, { cwd: scratch, env, cpu: 0 });
const adminUrl = /admin on (http:\/\/\S+)/.exec(server.output)?.[1];
const browser = await chromium.launch({ executablePath: wrapper, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });

/** CPU seconds (user + system) the process has used so far. */
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
};

/** `rate` requests a second for `seconds` from autocannon on core 1; resolves with the requests sent and the server's busy share of its core. */
function paced(url, rate, seconds, pid) {
  const before = cpuSeconds(pid);
  const started = performance.now();
  const child = spawn('taskset', ['-c', '1', `${root}node_modules/.bin/autocannon`, '-c', '10', '-R', String(rate), '-d', String(seconds), '-j', url], { stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const busy = (cpuSeconds(pid) - before) / ((performance.now() - started) / 1000);
      resolve({ requests: JSON.parse(output).requests.total, busy });
    });
  });
}

/** Runs in the page: counts animation frames and long tasks (the page's smoothness) until stop(). */
function watchFrames() {
  let frames = 0;
  let longTasks = 0;
  let longMs = 0;
  let running = true;
  const started = performance.now();
  const tick = () => {
    frames++;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const observer = new PerformanceObserver((list) => {
    for (const task of list.getEntries()) (longTasks++, (longMs += task.duration));
  });
  observer.observe({ type: 'longtask' });
  window.__frames = {
    stop() {
      running = false;
      observer.disconnect();
      return { fps: frames / ((performance.now() - started) / 1000), longTasks, longMs };
    },
  };
}

const samples = { blank: [], dashboard: [] };
const frames = [];
const busy = { blank: [], dashboard: [] };
let feed = 'unknown';
let held = '';
const loadBefore = loadavg();
console.log(`bench:dashboard: wrk ${connections} connections, ${rounds} interleaved rounds of ${duration} s, GET ${scenario.path}; server on core 0, wrk and Chromium on core 1\n`);
try {
  for (let round = 1; round <= rounds; round++) {
    for (const mode of ['blank', 'dashboard']) {
      if (mode === 'blank') await page.goto('about:blank');
      else {
        await page.goto(`${adminUrl}/#log`);
        await page.locator('.stream.ws, .stream.sse').waitFor();
      }
      const result = await runWrk(server.url, scenario, { connections, duration, cpu: 1, scriptFile: `${scratch}/wrk.lua` });
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${mode}: ${result.non2xx} non-2xx answers, ${result.errors} socket errors`);
      samples[mode].push(result.reqPerSec);
      if (mode === 'dashboard') {
        feed = (await page.locator('.stream').textContent()) ?? feed;
        held = (await page.locator('[data-testid=log-count]').textContent()) ?? held;
      }
      console.log(`  round ${round}: ${mode === 'blank' ? 'no dashboard (blank page)' : 'dashboard live log open'} … ${Math.round(result.reqPerSec)} req/s`);
    }
  }
  console.log(`\nat 1,000 req/s (autocannon -R 1000, ${duration} s):`);
  for (let round = 1; round <= rounds; round++) {
    for (const mode of ['blank', 'dashboard']) {
      await page.goto(mode === 'blank' ? 'about:blank' : `${adminUrl}/#log`);
      if (mode === 'dashboard') await page.locator('.stream.ws, .stream.sse').waitFor();
      if (mode === 'dashboard') await page.evaluate(watchFrames);
      const result = await paced(server.url + scenario.path, 1000, duration, server.pid);
      busy[mode].push(result.busy);
      let smooth = '';
      if (mode === 'dashboard') {
        const seen = await page.evaluate(() => window.__frames.stop());
        frames.push(seen);
        smooth = `; page ${seen.fps.toFixed(0)} frames/s, ${seen.longTasks} tasks over 50 ms (${seen.longMs.toFixed(0)} ms)`;
      }
      console.log(`  round ${round}: ${mode === 'blank' ? 'no dashboard' : 'dashboard live log open'} … server core ${(result.busy * 100).toFixed(1)}% busy (${result.requests} requests)${smooth}`);
    }
  }
  const share = median(busy.dashboard) - median(busy.blank);
  console.log(`median server core use: ${(median(busy.blank) * 100).toFixed(1)}% without, ${(median(busy.dashboard) * 100).toFixed(1)}% with the dashboard: it takes ${(share * 100).toFixed(1)}% of the core (target ≤ 5%)`);

  const blank = median(samples.blank);
  const dashboard = median(samples.dashboard);
  const ratio = dashboard / blank;
  console.log(`\nmedian without the dashboard: ${Math.round(blank)} req/s`);
  console.log(`median with the dashboard:    ${Math.round(dashboard)} req/s (feed: ${feed.trim()}; log: ${held.trim()})`);
  console.log(`ratio: ${ratio.toFixed(3)} (target ≥ 0.95: ${ratio >= 0.95 ? 'met' : 'missed'})`);
  const results = new URL('./results/', import.meta.url);
  await mkdir(results, { recursive: true });
  const environment = { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model, loadavgBefore: loadBefore, loadavgAfter: loadavg() };
  await writeFile(new URL('dashboard-overhead-latest.json', results), `${JSON.stringify({ date: new Date().toISOString(), environment, duration, rounds, connections, samples, blank, dashboard, ratio, feed: feed.trim(), at1000: { busy, share, frames } }, null, 2)}\n`);
} catch (e) {
  console.error(`\nbench:dashboard failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  await server.stop();
}
