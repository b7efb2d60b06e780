import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startMock } from '../helpers/cli.js';

t.test('the start lines: the URL a user clicks (localhost, the base path), the dashboard, and a one-line warning with where to read more', async (t) => {
  const spec = fileURLToPath(new URL('../../examples/petstore.yaml', import.meta.url));
  // every interface, as by default (the test talks to loopback only)
  const server = await startMock(['--spec', spec, '--http-port', '0', '--admin', '--admin-port', '0'], { cwd: t.testdir({}) });
  t.teardown(() => server.stop());
  const [, clickable] = /^mock: serving on (http:\/\/localhost:\d+\/v1) \((?:uWebSockets\.js; [^)]*|node:http)\)$/m.exec(server.stdout) ?? [];
  t.ok(clickable, `localhost for 0.0.0.0, with the description's first server path: ${server.stdout}`);
  t.equal((await fetch(`${clickable}/pets`)).status, 200, 'the printed URL answers');
  const [, dashboard] = /^mock: admin on http:\/\/127\.0\.0\.1:\d+ \(dashboard (http:\/\/127\.0\.0\.1:\d+\/), API under \/__mock\/\)$/m.exec(server.stdout) ?? [];
  t.ok(dashboard, `the dashboard's URL: ${server.stdout}`);
  const page = await fetch(dashboard);
  t.equal(page.status, 200);
  t.match(page.headers.get('content-type'), /^text\/html/, 'the dashboard page');
  // the log destination is asynchronous: the line may follow the addresses
  for (let i = 0; i < 50 && !/WARN.*\n/.test(server.stdout + server.stderr); i++) await sleep(100);
  const warnings = (server.stdout + server.stderr).split('\n').filter((line) => line.includes('WARN'));
  t.equal(warnings.length, 1, warnings.join('\n'));
  t.match(warnings[0], /the management router at http:\/\/0\.0\.0\.0:\d+\/__mock is reachable from other machines: --host 127\.0\.0\.1 keeps it local \(docs\/admin\.md#reachable-from-other-machines\)$/);
  const docs = readFileSync(new URL('../../docs/admin.md', import.meta.url), 'utf8');
  t.match(docs, /\n### Reachable from other machines\n/, 'the link leads to a section');
});
