// Nothing answered is lost: SIGTERM under load stops accepting, answers what the servers hold
// (their keep-alive connections closing after), and only then writes the recorder database, so
// every request a client got an answer to is a row, on both HTTP backends.
import t from 'tap';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { buildOnce, root, startMock, tmpdir } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

const SPEC = path.join(root, 'examples', 'petstore.yaml');
const OUT = await buildOnce(SPEC);
const CLIENTS = 16;

/** A GET on a kept-alive connection: resolves with the status once the whole answer is read. */
const get = (agent, url) =>
  new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', reject);
    });
    req.on('error', reject);
  });

for (const backend of ['uws', 'node']) {
  t.test(`SIGTERM under load on ${backend}: every answered request is recorded`, async (t) => {
    const dir = tmpdir();
    const db = path.join(dir, 'recorder.db');
    writeFileSync(path.join(dir, 'mock.yaml'), `server: { http_backend: ${backend} }\n`);
    const server = await startMock(['--spec', SPEC, '--out', OUT, '--recorder', '--recorder-db', db], { cwd: dir });
    // node:http says how long it keeps a connection; uWS does not (http.keepalive_hint is off)
    t.equal((await fetch(`${server.url}/v1/pets/1`)).headers.has('keep-alive'), backend === 'node', `served by ${backend}`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    let answered = 0;
    let failed = 0;
    const client = async () => {
      for (;;) {
        try {
          if ((await get(agent, `${server.url}/v1/pets/1`)) === 200) answered++;
          else failed++;
        } catch {
          // refused or ended: the server is going away
          return;
        }
      }
    };
    const clients = Array.from({ length: CLIENTS }, client);
    await until(() => answered >= 2_000, 30_000, 'the load to get going');
    const exited = new Promise((resolve) => server.child.once('close', resolve));
    server.child.kill('SIGTERM');
    await Promise.all(clients);
    agent.destroy();
    t.equal(await exited, 0, 'mock serve exits 0');
    t.equal(failed, 0, 'every answer was a 200');
    t.notMatch(server.stdout + server.stderr, /not recorded/, 'the recorder lost nothing');

    const rows = new sqlite.Database(db, { readOnly: true });
    const recorded = rows.get('SELECT COUNT(*) AS n FROM recordings').n;
    t.equal(rows.get('PRAGMA integrity_check').integrity_check, 'ok', 'the database is intact');
    rows.close();
    // an answer written just as a connection ended may be recorded without reaching its client
    t.ok(recorded >= answered && recorded - answered <= CLIENTS, `${answered} answered, ${recorded} recorded`);
  });
}
