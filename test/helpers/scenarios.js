// Scenario packages for tests: a valid scenario folder, tar archives (hostile ones included) built
// header by header with node-tar's Header, and a loopback HTTP server handing out files.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { root, tmpdir } from './cli.js';

/** A valid scenario folder (a copy of scenarios/ecommerce) named `name@version`; `extra` is appended to its scenario.yaml. */
export function scenarioDir({ name = 'shop-scenario', version = '1.0.0', category = 'ecommerce', dependencies = [], extra = '', packageJson = true } = {}) {
  const dir = tmpdir();
  cpSync(path.join(root, 'scenarios', 'ecommerce'), dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'scenario.yaml'),
    `name: ${name}\nversion: ${version}\ndescription: A test shop\nauthor: tests\ncategory: ${category}\ntags: [shop, test]\ndependencies: ${JSON.stringify(dependencies)}\n${extra}`,
  );
  // what a registry needs to hold it (mock scenario publish writes it when absent)
  if (packageJson) writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version, keywords: ['mock-scenario'] }));
  return dir;
}

/** A tar.gz of `entries`: {path, type = 'File', body = '', size, linkpath, mode}. */
export function tarball(entries) {
  const blocks = [];
  for (const entry of entries) {
    const body = Buffer.from(entry.body ?? '');
    const size = entry.type && entry.type !== 'File' ? 0 : (entry.size ?? body.length);
    const header = new Header({ path: entry.path, type: entry.type ?? 'File', size, linkpath: entry.linkpath, mode: entry.mode ?? (entry.type === 'Directory' ? 0o755 : 0o644), mtime: new Date(0) });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block);
    if (size > 0) {
      const data = entry.data ?? body;
      blocks.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

/** Serves `files` ({'/name.tgz': Buffer}) on a free loopback port; resolves with {url, close}. */
export function serveFiles(files) {
  const server = http.createServer((req, res) => {
    const body = files[req.url];
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) })));
}

/** A project folder with a mock.yaml. */
export function projectDir(yaml = '') {
  const dir = tmpdir();
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'mock.yaml'), yaml);
  return dir;
}
