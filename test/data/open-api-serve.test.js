// `mock data open-api` gives the bodies `mock serve` answers with the same seed, in the same order;
// --output writes files.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startMock, tmpdir } from '../helpers/cli.js';
import { parseCsv, runData } from './helpers.js';

const PETSTORE = 'examples/petstore.yaml';

t.test('the same bodies, in the same order, as `mock serve` with that seed', async (t) => {
  const server = await startMock(['--spec', PETSTORE, '--seed', '42', '--out', tmpdir()]);
  t.teardown(() => server.stop());
  const served = [];
  for (let i = 0; i < 3; i++) served.push(await (await fetch(`${server.url}/v1/pets`)).json());
  const data = await runData(['open-api', '--spec', PETSTORE, '--endpoint', '/pets', '--count', '3', '--seed', '42']);
  t.equal(data.code, 0, data.stderr);
  // the server's clock is the real one; everything else must match
  const withoutClock = (v) => JSON.stringify(v, (key, value) => (key === 'created_at' ? undefined : value));
  t.equal(withoutClock(JSON.parse(data.stdout)), withoutClock(served));
});

t.test('--output writes the file (format from its extension), nothing on stdout', async (t) => {
  const dir = t.testdir({ 'old.json': 'old' });
  const out = path.join(dir, 'nested', 'pets.csv');
  const res = await runData(['open-api', '--spec', PETSTORE, '--endpoint', '/pets/{petId}', '--count', '5', '--output', out, '--seed', '1']);
  t.equal(res.code, 0, res.stderr);
  t.equal(res.stdout, '');
  const { header, rows } = parseCsv(readFileSync(out, 'utf8'));
  t.equal(rows.length, 5, 'csv, from the .csv extension');
  t.ok(header.includes('owner.email'));

  const replaced = path.join(dir, 'old.json');
  const json = await runData(['open-api', '--spec', PETSTORE, '--endpoint', '/pets/{petId}', '--count', '2', '-o', replaced, '--seed', '1']);
  t.equal(json.code, 0, json.stderr);
  t.equal(JSON.parse(readFileSync(replaced, 'utf8')).length, 2, 'an existing file is replaced');
});

