// `mock data … --output <file>` says what it wrote: one line on stderr (stdout may be piped on),
// or with --json the same facts as JSON on stdout and nothing on stderr. It used to print nothing.
import t from 'tap';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from '../helpers/cli.js';
import { runData } from './helpers.js';

const TEMPLATE = '{"id":"{{uuid}}","email":"{{faker.email}}"}';

t.test('--output: one line on stderr naming the file, the count, the format and the size', async (t) => {
  const cwd = tmpdir();
  t.teardown(() => rmSync(cwd, { recursive: true, force: true }));
  const res = await runData(['template', '--template', TEMPLATE, '--count', '3', '--output', 'out/users.csv'], { cwd });
  t.equal(res.code, 0, res.stderr);
  t.equal(res.stdout, '', 'stdout stays free');
  const bytes = statSync(path.join(cwd, 'out/users.csv')).size;
  t.equal(res.stderr, `mock: wrote 3 values to out/users.csv (csv, ${bytes} bytes)\n`);

  const one = await runData(['template', '--template', TEMPLATE, '--output', 'one.json'], { cwd });
  t.equal(one.stderr, `mock: wrote 1 value to one.json (json, ${statSync(path.join(cwd, 'one.json')).size} bytes)\n`);
});

t.test('--json: what was written as JSON on stdout, nothing on stderr', async (t) => {
  const cwd = tmpdir();
  t.teardown(() => rmSync(cwd, { recursive: true, force: true }));
  const res = await runData(['template', '--template', TEMPLATE, '--count', '2', '--output', 'users.yaml', '--json'], { cwd });
  t.equal(res.code, 0, res.stderr);
  t.equal(res.stderr, '');
  const file = path.join(cwd, 'users.yaml');
  t.same(JSON.parse(res.stdout), { file, count: 2, format: 'yaml', bytes: Buffer.byteLength(readFileSync(file, 'utf8')) });
});

t.test('to stdout: the values only', async (t) => {
  const res = await runData(['template', '--template', TEMPLATE, '--count', '2']);
  t.equal(res.code, 0, res.stderr);
  t.equal(res.stderr, '');
  t.equal(JSON.parse(res.stdout).length, 2);
});
