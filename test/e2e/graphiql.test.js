// GraphiQL at the GraphQL path for a browser (issue 37, item 11): the page and its files served by
// the mock itself under a policy without 'unsafe-eval' or inline scripts, GraphQL requests at the
// same path answered as before, and in headless Chromium the page loading, running a query and a
// subscription against the mock, with every request it makes going to loopback.
import t from 'tap';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { root, startCommand, tmpdir } from '../helpers/cli.js';
import { CHROMIUM_MISSING, launchChromium } from '../helpers/chromium.js';

const shop = path.join(root, 'test', 'fixtures', 'graphql', 'shop.graphql');
const dir = tmpdir();
writeFileSync(path.join(dir, 'mock.yaml'), `server: { graphql_port: 0 }\ngraphql:\n  schema: ${JSON.stringify(shop)}\n  subscriptions: { interval_ms: 50, max_events: 2 }\n`);
const server = await startCommand(['serve', '--host', '127.0.0.1', '-c', path.join(dir, 'mock.yaml')], /GraphQL on (http:\/\/\S+)/, { cwd: dir });
t.teardown(() => server.stop());
const url = server.url;
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

t.test('a browser GET of the GraphQL path gets GraphiQL; GraphQL requests stay GraphQL', async (t) => {
  const page = await fetch(url, { headers: { accept: BROWSER_ACCEPT } });
  t.equal(page.status, 200);
  t.match(page.headers.get('content-type'), /^text\/html; charset=utf-8/);
  const policy = page.headers.get('content-security-policy');
  t.match(policy, /script-src 'self'/);
  t.notMatch(policy, /unsafe-eval|unsafe-inline|https?:/, 'no eval, no inline code, no other origin');
  const html = await page.text();
  t.match(html, '<base href="/graphql/">');
  t.notMatch(html, /<script>|<script(?![^>]*src=)[^>]*>/, 'no inline script');
  t.notMatch(html, /(src|href)="(https?:)?\/\//, 'nothing from another origin');
  const script = /<script[^>]*src="\.\/(assets\/[^"]+)"/.exec(html)?.[1];
  const asset = await fetch(`${url}/${script}`);
  t.equal(asset.status, 200, 'its script is served');
  t.match(asset.headers.get('content-type'), /^text\/javascript/);
  t.equal((await fetch(`${url}/${script}`, { headers: { 'if-none-match': asset.headers.get('etag') } })).status, 304, 'revalidated by ETag');
  for (const p of ['/assets/nope.js', '/assets/../../package.json', '/assets/%2e%2e/index.html']) t.equal((await fetch(`${url}${p}`)).status, 404, `${p} is not served`);

  const json = await fetch(url, { headers: { accept: 'application/json' } });
  t.equal(json.status, 400, 'a GET without a query that does not ask for HTML is still a GraphQL request');
  const query = await fetch(`${url}?query=${encodeURIComponent('{ me { id } }')}`, { headers: { accept: BROWSER_ACCEPT } });
  t.equal(query.status, 200);
  t.match(query.headers.get('content-type'), /^application\/json/, 'a browser GET with a query runs it');
  t.ok((await query.json()).data.me.id);
});

if (CHROMIUM_MISSING) {
  t.skip(CHROMIUM_MISSING);
} else {
  t.test('in Chromium: GraphiQL runs a query and a subscription, and nothing leaves loopback', async (t) => {
    const context = await launchChromium({ viewport: { width: 1280, height: 800 } });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const requested = [];
    const problems = [];
    page.on('request', (r) => requested.push(r.url()));
    page.on('websocket', (ws) => requested.push(ws.url()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(url);
    await page.locator('.graphiql-query-editor .CodeMirror').waitFor();
    // the schema came by introspection: the docs explorer shows the root types
    await page.locator('.graphiql-doc-explorer').or(page.locator('.graphiql-sidebar')).first().waitFor();

    /** Types a named operation, waits until GraphiQL has parsed it (it does so 100 ms after an edit), runs it and reads the answer shown. */
    const run = async (name, text, expected) => {
      await page.evaluate((q) => document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue(q), text);
      await page.waitForFunction((n) => document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.operationName === n, name);
      await page.locator('.graphiql-execute-button').click();
      await page.waitForFunction((want) => document.querySelector('.graphiql-response .CodeMirror')?.CodeMirror.getValue().includes(want), expected, { timeout: 10_000 });
      return JSON.parse(await page.evaluate(() => document.querySelector('.graphiql-response .CodeMirror').CodeMirror.getValue()));
    };
    const query = await run('Me', 'query Me { me { id email } }', '"email"');
    t.match(query, { data: { me: { id: String, email: /@/ } } }, 'the answer of the mock shows');
    const event = await run('Watch', 'subscription Watch { userCreated { id name } }', '"userCreated"');
    t.match(event, { data: { userCreated: { id: String, name: String } } }, 'a subscription event shows');

    const origin = new URL(url).host;
    t.ok(requested.some((u) => u.startsWith(`ws://${origin}/graphql`)), 'subscriptions over the same path');
    t.ok(requested.length > 3, `${requested.length} requests watched`);
    t.same(requested.filter((u) => !/^(https?|wss?):\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(u) && !u.startsWith('data:')), [], 'every request to loopback');
    t.same(problems, [], 'no error, no policy violation');
  });
}
