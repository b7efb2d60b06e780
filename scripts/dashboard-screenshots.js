#!/usr/bin/env node
// Screenshots of the web dashboard for the README and docs/dashboard.md (`npm run
// screenshots:dashboard`): starts `mock serve --admin` on examples/petstore.yaml, sends
// traffic (answered, refused, unmatched) throughout, adds a runtime mock and an override, opens each page in
// headless Chromium and writes docs/screenshots/dashboard-<page>.png.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs', 'screenshots');
const PAGES = ['overview', 'routes', 'log', 'unmatched', 'mocks', 'chaos', 'config', 'fixtures', 'state'];

/** `mock serve --admin` on free ports; resolves with its mock and admin URLs once both listen. */
function serve() {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'run.js'), 'serve', '--spec', 'examples/petstore.yaml', '--host', '127.0.0.1', '--http-port', '0', '--admin', '--admin-port', '0'], {
    cwd: root,
    env: { ...process.env, MOCK_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const mock = /serving on (http:\/\/[^/\s]+)/.exec(output)?.[1];
      const admin = /admin on (http:\/\/\S+)/.exec(output)?.[1];
      if (mock !== undefined && admin !== undefined) resolve({ mock, admin, child });
    });
    child.once('exit', (code) => reject(new Error(`mock serve exited with ${code}: ${output}`)));
  });
}

const json = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A few seconds of mixed traffic, so the charts, the log and the route table have something to show. */
async function traffic(mock, seconds) {
  const paths = ['/v1/pets', '/v1/pets/1', '/v1/pets/2', '/v1/pets?limit=3', '/v1/pet', '/v1/pets/abc', '/v1/orders'];
  const until = Date.now() + seconds * 1000;
  for (let i = 0; Date.now() < until; i++) {
    await Promise.all(paths.map((p, j) => ((i + j) % 5 === 0 ? fetch(`${mock}${p}`, json({ name: 'Rex' })) : fetch(`${mock}${p}`)).then((r) => r.arrayBuffer())));
    await new Promise((r) => setTimeout(r, 40));
  }
}

const server = await serve();
const { mock, admin } = server;
await fetch(`${admin}/__mock/mocks`, json({ id: 'hello', method: 'GET', path: '/hello', response: { body: { message: 'hello' } } }));
await fetch(`${admin}/__mock/overrides`, { ...json([{ name: 'slow-pets', match: { method: 'GET', path: '/v1/pets/**' }, delay_ms: 5 }]), method: 'PUT' });
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  await page.goto(`${admin}/#overview`);
  // traffic keeps flowing while the pages are shot, so the live numbers are not zero
  const flowing = traffic(mock, 30);
  await page.waitForTimeout(12_000);
  for (const name of PAGES) {
    // the fragment only: the page keeps its live history
    await page.evaluate((hash) => (location.hash = hash), name);
    await page.locator('h2').first().waitFor();
    if (name === 'unmatched') await page.locator('.closest').first().waitFor({ timeout: 5000 }).catch(() => undefined);
    if (name === 'log') await page.locator('.log-row').nth(3).click();
    await page.waitForTimeout(1200);
    const file = path.join(out, `dashboard-${name}.png`);
    await page.screenshot({ path: file });
    console.log(`wrote ${path.relative(root, file)}`);
  }
  await flowing;
} finally {
  await browser.close();
  server.child.kill('SIGTERM');
}
