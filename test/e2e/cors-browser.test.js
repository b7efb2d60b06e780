// CORS as a browser enforces it: pages served from other origins call `mock serve` with fetch in
// Chromium. On by default: a simple GET, a JSON POST that needs a preflight, a validation refusal
// the page can read, the GraphQL endpoint, and a credentialed request (from a page on another port
// of the mock's own site, so that the browser may send the mock's cookie at all): the cookie goes
// and the answer is read. A server started with --no-cors is blocked; from 127.0.0.2, an origin
// the admin's allowed_origins do not name, the /__mock management router can be neither read nor
// changed.
import t from 'tap';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMock, tmpdir } from '../helpers/cli.js';
import { CHROMIUM_MISSING, launchChromium } from '../helpers/chromium.js';

const ok = { 200: { description: 'ok', headers: { 'X-Total': { schema: { type: 'integer', example: 3 } } }, content: { 'application/json': { example: { ok: true } } } } };
const description = {
  openapi: '3.0.3',
  info: { title: 'cors in a browser', version: '1' },
  paths: {
    '/items': {
      get: { responses: ok },
      post: { requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } }, responses: ok },
    },
    '/whoami': { get: { parameters: [{ name: 'session', in: 'cookie', required: true, schema: { type: 'string', pattern: '^abc$' } }], responses: ok } },
  },
};

if (CHROMIUM_MISSING) {
  t.skip(CHROMIUM_MISSING);
} else {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'api.json'), JSON.stringify(description));
  writeFileSync(path.join(dir, 'schema.graphql'), 'type Query { hello: String }\n');
  const [mock, off] = await Promise.all([
    startMock(['--spec', 'api.json', '--out', path.join(dir, 'out'), '--graphql-schema', 'schema.graphql', '--graphql-port', '0'], { cwd: dir }),
    startMock(['--spec', 'api.json', '--out', path.join(dir, 'out-off'), '--no-cors'], { cwd: dir }),
  ]);
  t.teardown(() => Promise.all([mock.stop(), off.stop()]));
  const graphqlUrl = /GraphQL on (http:\/\/\S+)/.exec(mock.stdout)[1];

  // the pages' own origins: another loopback address (neither the mock's site nor an origin the admin allows), and another port of the mock's site
  const pageOn = async (host) => {
    const pages = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title><p>app'));
    await new Promise((resolve) => pages.listen(0, host, resolve));
    t.teardown(() => pages.close());
    return `http://${host}:${pages.address().port}/`;
  };
  const [pageUrl, sameSiteUrl] = await Promise.all([pageOn('127.0.0.2'), pageOn('127.0.0.1')]);

  t.test('a page on another origin calls the mock', async (t) => {
    const context = await launchChromium();
    t.teardown(() => context.close());
    // a cookie of the mock's site, which a request from another origin carries only when credentialed
    await context.addCookies([{ name: 'session', value: 'abc', url: mock.url, sameSite: 'Lax' }]);
    const sameSite = await context.newPage();
    await sameSite.goto(sameSiteUrl);
    const cookie = await sameSite.evaluate(async (mockUrl) => {
      const read = async (init) => {
        const res = await fetch(`${mockUrl}/whoami`, init);
        return { status: res.status, body: await res.text() };
      };
      return { credentialed: await read({ credentials: 'include' }), plain: await read({}) };
    }, mock.url);
    t.match(cookie.credentialed, { status: 200, body: '{"ok":true}' }, 'a credentialed request carries the cookie (the operation requires it) and its answer is read');
    t.match(cookie.plain, { status: 400 }, 'without credentials the cookie stays home (the control)');

    const page = await context.newPage();
    await page.goto(pageUrl);
    const results = await page.evaluate(
      async ({ mockUrl, offUrl, graphqlUrl }) => {
        const attempt = async (url, init) => {
          try {
            const res = await fetch(url, init);
            return { status: res.status, body: await res.text(), total: res.headers.get('x-total'), code: res.headers.get('x-mock-error-code') };
          } catch (error) {
            return { blocked: error.name };
          }
        };
        const json = { 'content-type': 'application/json' };
        const planted = JSON.stringify({ method: 'GET', path: '/planted', status_code: 200 });
        return {
          simple: await attempt(`${mockUrl}/items`),
          preflighted: await attempt(`${mockUrl}/items`, { method: 'POST', headers: { ...json, 'x-trace': '1' }, body: '{"name":"a"}' }),
          refused: await attempt(`${mockUrl}/items`, { method: 'POST', headers: json, body: '{}' }),
          graphql: await attempt(graphqlUrl, { method: 'POST', headers: json, body: '{"query":"{ hello }"}' }),
          off: await attempt(`${offUrl}/items`),
          offPreflighted: await attempt(`${offUrl}/items`, { method: 'POST', headers: json, body: '{"name":"a"}' }),
          adminRead: await attempt(`${mockUrl}/__mock/mocks`),
          adminWrite: await attempt(`${mockUrl}/__mock/mocks`, { method: 'POST', headers: json, body: planted }),
          adminSimpleWrite: await attempt(`${mockUrl}/__mock/mocks`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: planted }),
        };
      },
      { mockUrl: mock.url, offUrl: off.url, graphqlUrl },
    );

    t.match(results.simple, { status: 200, body: '{"ok":true}', total: '3' }, 'a simple GET is read, its documented header too');
    t.match(results.preflighted, { status: 200, body: '{"ok":true}' }, 'a JSON POST with a custom header passes its preflight');
    t.match(results.refused, { status: 400, code: 'MOCK_ERR_REQUEST_INVALID' }, 'a refusal reaches the page with its reason');
    t.match(JSON.parse(results.graphql.body ?? '{}'), { data: { hello: String } }, 'the GraphQL endpoint answers the page');
    t.same(results.off, { blocked: 'TypeError' }, '--no-cors: the browser withholds the answer');
    t.same(results.offPreflighted, { blocked: 'TypeError' }, '--no-cors: the preflight fails');
    t.same(results.adminRead, { blocked: 'TypeError' }, 'the management router cannot be read from the page');
    t.same(results.adminWrite, { blocked: 'TypeError' }, 'nor changed with JSON (its preflight fails)');
    t.same(results.adminSimpleWrite, { blocked: 'TypeError' }, 'nor with a simple request');
    t.equal((await fetch(`${mock.url}/planted`)).status, 404, 'no mock was planted');
  });
}
