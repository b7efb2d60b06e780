// External $refs of a description read only inside the project (the description's folder and
// mock.yaml's), or under a URL description's own folder; --allow-ref, on the command line only,
// allows more. Regression: `$ref: ../secret.env` and `$ref: /etc/passwd` were bundled and served.
import t from 'tap';
import http from 'node:http';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runMock, startMock, tmpdir } from '../helpers/cli.js';

const SECRET = 'SECRET_TOKEN=hunter2';

/** An operation answering with the $ref given as its example (or schema). */
const operation = (path, ref, where) =>
  [
    `  ${path}:`,
    '    get:',
    '      responses:',
    '        "200":',
    '          description: ok',
    '          content:',
    '            application/json:',
    `              ${where}: {$ref: ${JSON.stringify(ref)}}`,
  ].join('\n');

/** A description whose one answer's example (or schema) is the $ref given. */
const describe = (ref, where = 'example') => `openapi: 3.0.3\ninfo: {title: refs, version: "1"}\npaths:\n${operation('/thing', ref, where)}\n`;

/** Outside every project of this file: a folder of the system's temporary directory. */
const outside = mkdtempSync(path.join(os.tmpdir(), 'mock-outside-'));
writeFileSync(path.join(outside, 'secret.env'), `${SECRET}\n`);
writeFileSync(path.join(outside, 'secret.yaml'), `Widget: {type: string, enum: ["${SECRET}"]}\n`);

const refused = (t, res, { spec, ref, allow }) => {
  t.equal(res.code, 1, 'exit 1');
  const lines = res.stderr.trim().split('\n');
  t.equal(lines.length, 1, `one line: ${res.stderr}`);
  t.match(lines[0], `${spec}: the $ref ${JSON.stringify(ref)}`, 'names the description and the $ref');
  t.match(lines[0], /external \$refs must stay in \S+/, 'and where $refs must stay');
  if (allow !== undefined) t.match(lines[0], `pass --allow-ref ${allow}`, 'and the flag that allows it');
  t.notMatch(res.stdout + res.stderr, 'hunter2', 'nothing of the file is shown');
  t.notMatch(res.stderr, /\n\s+at /, 'no stack trace');
};

const built = (t, res, out, name) => {
  t.equal(res.code, 0, res.stderr);
  return readFileSync(path.join(out, name, 'responders.ts'), 'utf8');
};

t.test('a relative $ref out of the project is refused; --allow-ref allows its folder', async (t) => {
  const project = t.testdir({});
  // ../../…/secret.env: from the project up and over to the folder outside
  const ref = path.relative(project, path.join(outside, 'secret.env'));
  writeFileSync(path.join(project, 'api.yaml'), describe(ref));
  const out = tmpdir();
  // independent runs, side by side
  const [refusal, allowed] = await Promise.all([
    runMock(['build', '--spec', 'api.yaml', '--out', tmpdir()], { cwd: project }),
    runMock(['build', '--spec', 'api.yaml', '--out', out, '--allow-ref', outside], { cwd: project }),
  ]);
  refused(t, refusal, { spec: 'api.yaml', ref, allow: outside });
  t.match(built(t, allowed, out, 'api'), 'hunter2', 'allowed: bundled');
});

t.test('an absolute $ref, a symbolic link and an encoded path are refused too', async (t) => {
  const dir = t.testdir({ 'abs.yaml': describe(path.join(outside, 'secret.yaml#/Widget'), 'schema'), 'link.yaml': describe('./secret-link.yaml#/Widget', 'schema'), 'encoded.yaml': describe('..%2Fsecret.env') });
  symlinkSync(path.join(outside, 'secret.yaml'), path.join(dir, 'secret-link.yaml'));
  const out = tmpdir();
  // independent runs, side by side
  const [abs, link, encoded, allowed] = await Promise.all([
    runMock(['build', '--spec', 'abs.yaml', '--out', tmpdir()], { cwd: dir }),
    runMock(['build', '--spec', 'link.yaml', '--out', tmpdir()], { cwd: dir }),
    runMock(['build', '--spec', 'encoded.yaml', '--out', tmpdir()], { cwd: dir }),
    runMock(['build', '--spec', 'link.yaml', '--out', out, '--allow-ref', outside], { cwd: dir }),
  ]);
  refused(t, abs, { spec: 'abs.yaml', ref: path.join(outside, 'secret.yaml'), allow: outside });
  refused(t, link, { spec: 'link.yaml', ref: './secret-link.yaml', allow: outside });
  t.match(link.stderr, `through a symbolic link (to ${path.join(outside, 'secret.yaml')})`);
  // `%2F` is no separator in a path: the bundler looks for a file of that name in the folder
  t.equal(encoded.code, 1);
  t.notMatch(encoded.stdout + encoded.stderr, 'hunter2');

  t.match(built(t, allowed, out, 'link'), 'hunter2', 'allowed: the link is followed');
});

t.test('mock serve, config validate and data open-api refuse alike', async (t) => {
  const dir = t.testdir({ 'api.yaml': describe(path.join(outside, 'secret.env')), 'mock.yaml': 'specs: [api.yaml]\n' });
  // independent runs, side by side
  const [serve, validate, data, allowed] = await Promise.all([
    startMock([], { cwd: dir }).catch((e) => e),
    runMock(['config', 'validate'], { cwd: dir }),
    runMock(['data', 'open-api', '--spec', 'api.yaml', '--endpoint', '/thing'], { cwd: dir }),
    runMock(['data', 'open-api', '--spec', 'api.yaml', '--endpoint', '/thing', '--allow-ref', outside], { cwd: dir }),
  ]);
  refused(t, { code: serve.code, stdout: serve.stdout, stderr: serve.stderr.replace(/^mock serve: building.*\n/gm, '') }, { spec: 'api.yaml', ref: path.join(outside, 'secret.env'), allow: outside });
  refused(t, validate, { spec: 'api.yaml', ref: path.join(outside, 'secret.env') });
  refused(t, data, { spec: 'api.yaml', ref: path.join(outside, 'secret.env') });
  t.equal(allowed.code, 0, allowed.stderr);
});

t.test("refs into the description's folder and mock.yaml's folder keep working", async (t) => {
  const dir = t.testdir({
    'mock.yaml': 'specs: [specs/api.yaml]\n',
    shared: { 'common.yaml': 'Widget: {type: string, enum: [shared-widget]}\n' },
    specs: {
      'api.yaml': `openapi: 3.0.3\ninfo: {title: refs, version: "1"}\npaths:\n${operation('/a', '../shared/common.yaml#/Widget', 'schema')}\n${operation('/b', './local.yaml#/Widget', 'schema')}\n`,
      'local.yaml': 'Widget: {type: string, enum: [local-widget]}\n',
    },
  });
  const res = await runMock(['build'], { cwd: dir });
  t.equal(res.code, 0, res.stderr);
  const responders = readFileSync(path.join(dir, 'generated', 'api', 'responders.ts'), 'utf8');
  t.match(responders, 'shared-widget');
  t.match(responders, 'local-widget');
});

t.test('URLs: a local description reads none, a URL description only under its own folder, redirects included', async (t) => {
  const files = {
    '/specs/api.yaml': describe('./parts/widget.yaml#/Widget', 'schema'),
    '/specs/parts/widget.yaml': 'Widget: {type: string, enum: [url-widget]}\n',
    '/specs/climb.yaml': describe('../private/secret.yaml#/Widget', 'schema'),
    '/specs/encoded.yaml': describe('./%2e%2e/private/secret.yaml#/Widget', 'schema'),
    '/specs/redirect.yaml': describe('./moved.yaml#/Widget', 'schema'),
    '/private/secret.yaml': `Widget: {type: string, enum: ["${SECRET}"]}\n`,
  };
  const server = http.createServer((req, res) => {
    if (req.url === '/specs/moved.yaml') return res.writeHead(302, { location: '/private/secret.yaml' }).end();
    const body = files[req.url];
    res.writeHead(body === undefined ? 404 : 200).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const base = `http://127.0.0.1:${server.address().port}`;

  const out = tmpdir();
  const allowedOut = tmpdir();
  const dir = t.testdir({ 'local.yaml': describe(`${base}/specs/parts/widget.yaml#/Widget`, 'schema') });
  const localOut = tmpdir();
  // independent runs, side by side
  const [api, climb, encoded, redirect, allowed, local, localAllowed] = await Promise.all([
    runMock(['build', '--spec', `${base}/specs/api.yaml`, '--out', out]),
    runMock(['build', '--spec', `${base}/specs/climb.yaml`, '--out', tmpdir()]),
    runMock(['build', '--spec', `${base}/specs/encoded.yaml`, '--out', tmpdir()]),
    runMock(['build', '--spec', `${base}/specs/redirect.yaml`, '--out', tmpdir()]),
    runMock(['build', '--spec', `${base}/specs/climb.yaml`, '--out', allowedOut, '--allow-ref', `${base}/private/`]),
    runMock(['build', '--spec', 'local.yaml', '--out', tmpdir()], { cwd: dir }),
    runMock(['build', '--spec', 'local.yaml', '--out', localOut, '--allow-ref', `${base}/specs/`], { cwd: dir }),
  ]);
  t.match(built(t, api, out, 'api'), 'url-widget', 'a $ref under its folder is read');
  refused(t, climb, { spec: `${base}/specs/climb.yaml`, ref: '../private/secret.yaml', allow: `${base}/private/` });
  refused(t, encoded, { spec: `${base}/specs/encoded.yaml`, ref: './%2e%2e/private/secret.yaml' });
  refused(t, redirect, { spec: `${base}/specs/redirect.yaml`, ref: `${base}/specs/moved.yaml` });
  t.match(redirect.stderr, `redirects to ${base}/private/secret.yaml`);
  t.match(built(t, allowed, allowedOut, 'climb'), 'hunter2', 'allowed by prefix');

  refused(t, local, { spec: 'local.yaml', ref: `${base}/specs/parts/widget.yaml`, allow: `${base}/specs/parts/` });
  t.match(built(t, localAllowed, localOut, 'local'), 'url-widget');
});

t.test('Swagger 2.0 descriptions are bundled by the same resolver', async (t) => {
  const dir = t.testdir({
    'v2.yaml': [
      'swagger: "2.0"',
      'info: {title: v2, version: "1"}',
      'paths:',
      '  /thing:',
      '    get:',
      '      produces: [application/json]',
      '      responses:',
      `        "200": {description: ok, schema: {$ref: ${JSON.stringify(`${path.join(outside, 'secret.yaml')}#/Widget`)}}}`,
      '',
    ].join('\n'),
  });
  refused(t, await runMock(['build', '--spec', 'v2.yaml', '--out', tmpdir()], { cwd: dir }), { spec: 'v2.yaml', ref: path.join(outside, 'secret.yaml'), allow: outside });
});
