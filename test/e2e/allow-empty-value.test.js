// allowEmptyValue (false unless a description says otherwise): a query parameter, or a Swagger 2.0
// formData field, sent empty (`?id=`, `?id`, curl's `--data "id"` or `-F "id="`) is refused like
// any other invalid parameter, in the validation error shape and by the validation mode. The
// form cases are Prism's own (test-harness allow-empty-value*.oas2), the query cases OpenAPI 3's.
// An optional parameter whose schema's own default is "" may be sent empty (that is its default:
// Jira's `queryString`, test/fixtures/openapi/jira-excerpt.json), unless the schema itself refuses
// an empty string (minLength, pattern, enum).
import t from 'tap';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { needsCurl, root, startMock, tmpdir } from '../helpers/cli.js';

const ok = { 200: { description: 'ok', content: { 'application/json': { example: { ok: true } } } } };
const openapi = {
  openapi: '3.0.3',
  info: { title: 'empty values', version: '1' },
  paths: {
    '/items': {
      get: {
        parameters: [
          { name: 'id', in: 'query', schema: { type: 'string' } },
          { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'q', in: 'query', allowEmptyValue: true, schema: { type: 'string' } },
          { name: 'pipes', in: 'query', style: 'pipeDelimited', explode: false, schema: { type: 'array', items: { type: 'string' } } },
          { name: 'filter', in: 'query', schema: { type: 'string', default: '' } },
          { name: 'code', in: 'query', schema: { type: 'string', default: '', minLength: 1 } },
          { name: 'slug', in: 'query', schema: { type: 'string', default: '', pattern: '^[a-z]+$' } },
          { name: 'order', in: 'query', schema: { type: 'string', default: '', enum: ['asc', 'desc'] } },
        ],
        responses: ok,
      },
    },
  },
};
const swagger = {
  swagger: '2.0',
  info: { title: 'empty form fields', version: '1' },
  paths: {
    '/path': {
      post: {
        consumes: ['application/x-www-form-urlencoded'],
        parameters: [
          { in: 'formData', type: 'string', name: 'id', allowEmptyValue: false },
          { in: 'formData', type: 'string', name: 'note', allowEmptyValue: true },
        ],
        responses: { 200: { description: 'ok', schema: { type: 'string' } } },
      },
    },
    '/upload': {
      post: {
        consumes: ['multipart/form-data'],
        parameters: [{ in: 'formData', type: 'string', name: 'id' }],
        responses: { 200: { description: 'ok', schema: { type: 'string' } } },
      },
    },
    '/search': { get: { parameters: [{ in: 'query', type: 'string', name: 'id' }, { in: 'query', type: 'string', name: 'q', allowEmptyValue: true }], responses: { 200: { description: 'ok' } } } },
  },
};

const dir = tmpdir();
writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(openapi));
writeFileSync(path.join(dir, 'swagger.json'), JSON.stringify(swagger));
const serve = (file, ...args) => startMock(['--spec', path.join(dir, file), '--out', path.join(dir, `out-${file}-${args.length}`), ...args]);
const jira = path.join(root, 'test', 'fixtures', 'openapi', 'jira-excerpt.json');
const [v3, v2, warned] = await Promise.all([serve('openapi.json', '--spec', jira, '--no-security'), serve('swagger.json'), serve('swagger.json', '--validation', 'warn')]);
t.teardown(() => Promise.all([v3.stop(), v2.stop(), warned.stop()]));

async function get(server, target) {
  const res = await fetch(server.url + target);
  const text = await res.text();
  return { status: res.status, text, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
}

/** curl's status code and body for a POST with the given curl arguments. */
function curl(url, args) {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '--max-time', '10', '-w', '\n%{http_code}', '-X', 'POST', ...args, url], (error, stdout) => {
      if (error) return reject(error);
      const at = stdout.lastIndexOf('\n');
      resolve({ status: Number(stdout.slice(at + 1)), text: stdout.slice(0, at) });
    });
  });
}

t.test('OpenAPI 3 query parameters', async (t) => {
  for (const target of ['/items?id=', '/items?id', '/items?tags=', '/items?id=&q=x']) {
    const res = await get(v3, target);
    t.equal(res.status, 400, `${target} is refused`);
    t.match(res.body?.errors?.[0], { location: 'query', keyword: 'allowEmptyValue' }, target);
  }
  const refused = await get(v3, '/items?id=');
  t.match(refused.body, { code: 'MOCK_ERR_REQUEST_INVALID', detail: "query parameter 'id' must not be empty (its allowEmptyValue is false)", errors: [{ location: 'query', name: 'id' }] });
  for (const target of ['/items?id=1', '/items?q=', '/items?q', '/items?id=1&q=', '/items?pipes=', '/items']) {
    t.equal((await get(v3, target)).status, 200, `${target} is accepted`);
  }
});

t.test('a schema whose own default is "" accepts the parameter sent empty, unless the schema refuses ""', async (t) => {
  for (const target of ['/rest/api/3/screens?queryString=', '/rest/api/3/screens?queryString', '/rest/api/3/screenscheme?queryString=&expand=', '/items?filter=']) {
    const res = await get(v3, target);
    t.equal(res.status, 200, `${target} is accepted: it sends the default (${res.text.slice(0, 200)})`);
  }
  for (const [target, keyword] of [['/items?code=', 'minLength'], ['/items?slug=', 'pattern'], ['/items?order=', 'enum']]) {
    const res = await get(v3, target);
    t.equal(res.status, 400, `${target} is refused by its schema`);
    t.match(res.body?.errors?.[0], { location: 'query', keyword }, target);
  }
});

t.test('Swagger 2.0 query parameters', async (t) => {
  t.equal((await get(v2, '/search?id=')).status, 400);
  t.equal((await get(v2, '/search?id=1&q=')).status, 200);
});

t.test('Swagger 2.0 formData fields, sent with curl', { skip: needsCurl }, async (t) => {
  const bare = await curl(`${v2.url}/path`, ['-H', 'Content-Type: application/x-www-form-urlencoded', '--data', 'id']);
  t.equal(bare.status, 400, '--data "id" is refused');
  t.match(JSON.parse(bare.text), { detail: 'body /id must not be empty (its allowEmptyValue is false)', errors: [{ location: 'body', name: '/id', keyword: 'allowEmptyValue' }] });
  t.equal((await curl(`${v2.url}/path`, ['--data', 'id='])).status, 400, '--data "id=" is refused');
  t.equal((await curl(`${v2.url}/path`, ['--data', 'id=7'])).status, 200, '--data "id=7" is accepted');
  t.equal((await curl(`${v2.url}/path`, ['--data', 'id=7&note='])).status, 200, 'a field whose allowEmptyValue is true may be empty');
  t.equal((await curl(`${v2.url}/upload`, ['-F', 'id='])).status, 400, '-F "id=" is refused');
  t.equal((await curl(`${v2.url}/upload`, ['-F', 'id=7'])).status, 200, '-F "id=7" is accepted');
});

t.test('warn mode accepts, as with every parameter error', { skip: needsCurl }, async (t) => {
  t.equal((await get(warned, '/search?id=')).status, 200);
  t.equal((await curl(`${warned.url}/path`, ['--data', 'id'])).status, 200);
});
