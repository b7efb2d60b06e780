// The WebSocket mock server through the real CLI and a real client (the ws package): replay
// scripts (timing, waitFor by regex and JSONPath, in lines, captures in templates, binary frames,
// scripted close, the message timeout), routes with parameters, echo, the limits (connections,
// message size, heartbeat), chaos, the admin API, and recording then replaying a session. The same
// suite runs on uWebSockets.js and on the node:http + ws fallback.
import t from 'tap';
import net from 'node:net';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOnce, root, runMock, startMock, tmpdir } from '../helpers/cli.js';
import { clientFrame, connect, rawClient } from '../helpers/websocket.js';
import { until } from '../helpers/wait.js';
import { WebSocketServer } from 'ws';

const spec = path.join(root, 'examples', 'petstore.yaml');
const out = await buildOnce(spec);
const lines = (...objects) => objects.map((o) => JSON.stringify(o)).join('\n') + '\n';

function project(backend) {
  const dir = tmpdir();
  mkdirSync(path.join(dir, 'scripts'));
  writeFileSync(
    path.join(dir, 'scripts', 'chat.jsonl'),
    lines(
      { ts: 0, dir: 'out', text: '{"type":"welcome","room":"{{request.path.room}}","user":"{{request.query.user}}"}' },
      { ts: 0, dir: 'in', text: 'join alice', waitFor: '^join (?<user>\\w+)$' },
      { ts: 0, dir: 'out', text: 'hello {{user}}' },
      { ts: 0, dir: 'in', waitFor: { '$.type': 'order' }, capture: { order: '$.id' } },
      { ts: 0, dir: 'out', text: '{"ack":"{{order}}","qty":{{request.body.qty}}}' },
      { ts: 0, dir: 'out', text: 'AAEC/w==', encoding: 'base64' },
      { ts: 250, dir: 'out', text: 'late' },
      { ts: 250, dir: 'out', close: { code: 4000, reason: 'script done' } },
    ),
  );
  writeFileSync(
    path.join(dir, 'scripts', 'jsonpath.jsonl'),
    lines({ ts: 0, dir: 'out', text: 'ready' }, { ts: 0, dir: 'out', waitFor: '$.subscribe', text: 'subscribed' }, { ts: 0, dir: 'in', waitFor: 'never-sent' }),
  );
  writeFileSync(path.join(dir, 'scripts', 'default.jsonl'), lines({ ts: 0, dir: 'out', text: 'default script on {{message}}' }));
  writeFileSync(
    path.join(dir, 'mock.yaml'),
    `specs: [${JSON.stringify(spec)}]
server: { http_backend: ${backend}, ws_port: 0 }
core: { fixtures: { dir: ./fixtures, record_enabled: true, replay_enabled: true, max_recording_mb: 1 } }
websocket:
  max_connections: 6
  message_timeout: 1000
  heartbeat_interval: 500
  max_message_bytes: 65536
  max_buffered_bytes: 65536
  routes:
    - { path: '/chat/{room}', script: scripts/chat.jsonl }
    - { path: /wait, script: scripts/jsonpath.jsonl }
    - { path: '/echo/{any}', echo: true }
    - path: '/quotes/{symbol}'
      on_open: ['{"hello":"{{request.path.symbol}}"}']
      unmatched: close
      messages:
        - { match: '^ping$', reply: pong }
        - match: { "$.type": sub }
          capture: { channel: "$.channel" }
          reply: ['{"subscribed":"{{channel}}","symbol":"{{request.path.symbol}}"}', { text: "AQI=", encoding: base64 }]
        - { match: '^bye$', reply: ciao, close: { code: 4001, reason: bye } }
`,
  );
  return dir;
}

for (const backend of ['uws', 'node']) {
  t.test(`on ${backend}`, async (t) => {
    const dir = project(backend);
    const server = await startMock(['-c', path.join(dir, 'mock.yaml'), '--out', out, '--admin', '--admin-port', '0', '--metrics', '--metrics-port', '0'], { cwd: dir });
    t.teardown(() => server.stop());
    const ws = server.wsUrl;
    t.match(ws, /^ws:\/\/127\.0\.0\.1:\d+$/, 'mock serve prints the WebSocket address');
    const admin = async (p) => (await (await fetch(`${server.adminUrl}/__mock/${p}`)).json()).data;
    const idle = () => until(async () => (await admin('websocket')).server.active_connections === 0, 10_000, 'every connection closed');

    t.test('a script: templates over the path, query and captured values; waitFor by regex and by JSONPath conditions; binary; close', async (t) => {
      // the session's clock starts when the server accepts the upgrade: after this, before the client sees it open
      const requested = performance.now();
      const c = await connect(`${ws}/chat/lobby?user=ann`);
      t.same(JSON.parse((await c.next()).text), { type: 'welcome', room: 'lobby', user: 'ann' }, 'the first out line at ts 0');
      c.send('join bob');
      t.equal((await c.next()).text, 'hello bob', 'the regex capture (?<user>) in the next line');
      c.send('{"type":"chatter"}');
      c.send(JSON.stringify({ type: 'order', id: 'o-7', qty: 3 }));
      t.same(JSON.parse((await c.next()).text), { ack: 'o-7', qty: 3 }, 'the JSONPath conditions skipped the other message; capture and request.body of the matching one');
      const binary = await c.next();
      t.same([...binary.binary], [0, 1, 2, 255], 'a binary frame from base64');
      const late = await c.next();
      t.equal(late.text, 'late');
      const due = c.openedAt + late.at - requested;
      t.ok(due >= 248, `an out line at ts 250 is not sent before it is due (${due.toFixed(0)} ms after the upgrade was requested)`);
      t.same(await c.closed, { code: 4000, reason: 'script done' }, 'the scripted close');
    });

    t.test('several connections play scripts at once, each with its own position and captures', async (t) => {
      const [a, b] = await Promise.all([connect(`${ws}/chat/one`), connect(`${ws}/chat/two`)]);
      t.equal(JSON.parse((await a.next()).text).room, 'one');
      t.equal(JSON.parse((await b.next()).text).room, 'two');
      b.send('join bea');
      a.send('join al');
      t.equal((await a.next()).text, 'hello al');
      t.equal((await b.next()).text, 'hello bea');
      a.close();
      b.close();
      await Promise.all([a.closed, b.closed]);
    });

    t.test('waitFor holds an out line; an unmet wait closes with 4408 after message_timeout', async (t) => {
      const c = await connect(`${ws}/wait`);
      t.equal((await c.next()).text, 'ready');
      c.send('{"other":true}');
      await t.rejects(c.next(150), 'nothing while no message has $.subscribe');
      c.send('{"subscribe":"news"}');
      t.equal((await c.next()).text, 'subscribed', 'a JSONPath waitFor released it');
      const closed = await c.closed;
      t.equal(closed.code, 4408, 'the next wait timed out');
      t.match(closed.reason, /line 3 waited 1000 ms for a message matching never-sent/);
    });

    t.test('routes: template answers to matching messages, on_open, unmatched close; echo; paths no route claims', async (t) => {
      const q = await connect(`${ws}/quotes/ACME`);
      t.same(JSON.parse((await q.next()).text), { hello: 'ACME' }, 'on_open');
      q.send('ping');
      t.equal((await q.next()).text, 'pong');
      q.send(JSON.stringify({ type: 'sub', channel: 'ticks' }));
      t.same(JSON.parse((await q.next()).text), { subscribed: 'ticks', symbol: 'ACME' }, 'capture and path parameter');
      t.same([...(await q.next()).binary], [1, 2], 'a binary reply');
      q.send('bye');
      t.equal((await q.next()).text, 'ciao');
      t.same(await q.closed, { code: 4001, reason: 'bye' }, 'close after the reply');

      const u = await connect(`${ws}/quotes/X`);
      await u.next();
      u.send('what?');
      t.equal((await u.closed).code, 1003, 'unmatched: close answers 1003');

      const e = await connect(`${ws}/echo/room`);
      e.send('hi');
      e.send(Buffer.from([9, 8, 7]));
      t.equal((await e.next()).text, 'hi', 'echo: text as text');
      t.same([...(await e.next()).binary], [9, 8, 7], 'binary as binary');
      e.close();

      const d = await connect(`${ws}/somewhere/else`);
      d.send('x');
      t.equal((await d.next()).text, 'x', 'a path no route claims echoes (no replay_file)');
      d.close(1000, 'bye');
      await d.closed;
    });

    t.test('limits: 1009 on an oversized message, the heartbeat drops a dead peer, the connection limit answers 503', async (t) => {
      const big = await connect(`${ws}/echo/big`);
      big.send('x'.repeat(70_000));
      t.equal((await big.closed).code, 1009, 'a message above max_message_bytes');

      const dead = await rawClient(`${ws}/echo/dead`);
      await dead.ended;
      t.pass('a peer that never answers pings is dropped');
      await until(async () => (await admin('logs?path=/echo/dead')).some((e) => /heartbeat_interval/.test(e.error_message ?? '')), 5000, 'the dead peer in the log');

      const slow = await rawClient(`${ws}/echo/slow-reader`, { read: false });
      const frame = clientFrame('y'.repeat(30_000));
      // written at once: it flows at loopback speed until the server's buffer for this reader fills
      for (let i = 0; i < 800; i++) slow.socket.write(frame);
      const closed = await until(async () => (await admin('logs?path=/echo/slow-reader'))[0], 10_000, 'the slow reader closed');
      t.match(closed, { websocket: { close_code: 1008 }, error_message: /reads too slowly: more than 65536 bytes/ }, 'a client that reads nothing is closed with 1008, not buffered for');
      slow.socket.destroy();

      await idle();
      const open = [];
      for (let i = 0; i < 6; i++) open.push(await connect(`${ws}/echo/${i}`));
      const refused = await connect(`${ws}/echo/7`).catch((e) => e);
      t.equal(refused.status, 503, 'the seventh upgrade with max_connections 6');
      t.match(JSON.parse(refused.body), { code: 'MOCK_ERR_WS_CONNECTION_LIMIT' }, 'the catalogue problem');
      for (const c of open) c.close();
      await Promise.all(open.map((c) => c.closed));
    });

    t.test('chaos: latency per message, connection errors at the upgrade', async (t) => {
      await idle();
      const post = (p, body, method = 'POST') => fetch(`${server.adminUrl}/__mock/${p}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      t.equal((await post('config/latency', { enabled: true, base_ms: 200, jitter_ms: 0 })).status, 200);
      const c = await connect(`${ws}/echo/slow`);
      const sent = performance.now();
      c.send('a');
      await c.next();
      t.ok(performance.now() - sent >= 190, 'the echo waited for the latency');
      c.close();
      await post('config/latency', { enabled: false, base_ms: 0, jitter_ms: 0 });
      const chaos = await post('chaos/config', { enabled: true, fault_injection: { enabled: true, connection_errors: true, connection_error_probability: 1 } }, 'PUT');
      t.equal(chaos.status, 200, 'connection errors on');
      const refused = await connect(`${ws}/echo/chaos`).catch((e) => e);
      t.equal(refused.status, 503, 'the upgrade gets the injected 503');
      t.match(refused.headers['x-mock-fault'], /connection_error/);
      await post('chaos/config/reset', {});
    });

    t.test('HTTP on the WebSocket port is 426 from the catalogue', async (t) => {
      const res = await fetch(ws.replace(/^ws/, 'http') + '/anything');
      t.equal(res.status, 426);
      t.match(await res.json(), { code: 'MOCK_ERR_WS_UPGRADE_REQUIRED' });
    });

    t.test('recording writes a replay script; the next connection to the path replays it', async (t) => {
      const first = await connect(`${ws}/echo/rec`);
      first.send('one');
      await first.next();
      first.send(Buffer.from([1, 2]));
      await first.next();
      first.close(1000, 'done');
      await first.closed;
      const folder = path.join(dir, 'fixtures', 'websocket', 'echo', 'rec');
      await until(() => existsSync(path.join(folder, 'session-0001.jsonl')), 5000, 'the recorded session');
      const recorded = readFileSync(path.join(folder, 'session-0001.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      t.match(recorded, [{ dir: 'in', text: 'one' }, { dir: 'out', text: 'one' }, { dir: 'in', text: 'AQI=', encoding: 'base64' }, { dir: 'out', text: 'AQI=', encoding: 'base64' }], 'in and out lines, binary as base64');

      const again = await connect(`${ws}/echo/rec`);
      again.send('anything');
      t.equal((await again.next()).text, 'one', 'the recorded answer, whatever was sent');
      again.send('more');
      t.same([...(await again.next()).binary], [1, 2]);
      again.close();
      await again.closed;
      t.same(readdirSync(folder), ['session-0001.jsonl'], 'a replayed session is not recorded again');
    });

    t.test('recording goes to disk as the session goes, and stops at core.fixtures.max_recording_mb with one warning', async (t) => {
      const folder = path.join(dir, 'fixtures', 'websocket', 'echo', 'budget');
      const c = await connect(`${ws}/echo/budget`);
      const message = (n) => `${n}:`.padEnd(60_000, 'm');
      for (let n = 0; n < 2; n++) {
        c.send(message(n));
        await c.next();
      }
      // the file appears with the first line; the writes behind it land shortly after
      const written = () => (existsSync(folder) ? readdirSync(folder).find((name) => name.startsWith('.recording-') && statSync(path.join(folder, name)).size >= 64 * 1024) : undefined);
      t.ok(await until(written, 5000, 'the session on disk while it is open'), 'lines written as they go, in a hidden file no reader lists');
      t.notOk(readdirSync(folder).some((name) => name.endsWith('.jsonl')), 'no session file before the session ends');
      for (let n = 2; n < 12; n++) {
        c.send(message(n));
        await c.next();
      }
      c.close(1000, 'done');
      await c.closed;
      const file = path.join(folder, 'session-0001.jsonl');
      await until(() => existsSync(file), 5000, 'the session file');
      t.same(readdirSync(folder), ['session-0001.jsonl'], 'the hidden file became the session file');
      const size = statSync(file).size;
      t.ok(size <= 1024 * 1024 && size > 900 * 1024, `at most 1 MiB (${size} bytes)`);
      const recorded = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      t.same(recorded.slice(0, 2).map((l) => [l.dir, l.text.slice(0, 2)]), [['in', '0:'], ['out', '0:']], 'the lines before the budget, whole');
      t.ok(recorded.length < 24, `the rest left out (${recorded.length} of 24 lines)`);
      const warnings = (server.stdout + server.stderr).split('\n').filter((l) => l.includes('/echo/budget stopped at core.fixtures.max_recording_mb (1)'));
      t.equal(warnings.length, 1, 'one warning, not one per message left out');

      const again = await connect(`${ws}/echo/budget`);
      again.send('anything');
      t.equal((await again.next()).text, message(0), 'the cut recording replays');
      again.close();
      await again.closed;
    });

    t.test('admin: servers[], server-info, health, the session log and per-path statistics', async (t) => {
      await idle();
      const servers = await admin('dashboard');
      const listed = servers.servers.find((s) => s.server_type === 'WebSocket');
      t.match(listed, { running: true, address: ws.slice('ws://'.length), active_connections: 0, library: backend, http_version: '1.1' }, 'servers[]');
      t.ok(listed.total_requests >= 8 && listed.messages_received > 0 && listed.messages_sent > 0, 'sessions and messages counted');
      t.equal((await admin('server-info')).ws_server, ws.slice('ws://'.length), 'server-info.ws_server');
      const health = await (await fetch(`${server.adminUrl}/__mock/health`)).json();
      t.equal((health.data ?? health).services.websocket, 'running', 'health services.websocket');
      const logged = (await admin('logs?path=/chat/lobby'))[0];
      t.match(logged, { method: 'GET', status_code: 101, websocket: { messages_in: 3, messages_out: 5, close_code: 4000, close_reason: 'script done', played: 'script chat.jsonl' } }, 'the session is a request-log entry');
      const stats = await admin('websocket');
      t.match(stats.paths['/chat/{room}'], { sessions: 3, active: 0, messages_in: 5, messages_out: 9, close_codes: { 4000: 1 } }, 'per path (the route pattern)');
      t.match(stats.paths['/wait'], { errors: 1, close_codes: { 4408: 1 } }, 'the timeout counted as an error');
      t.same(stats.library, backend, 'the library that serves');
      t.ok((await admin('metrics')).websocket_by_path['/quotes/{symbol}'].sessions >= 2, 'metrics per path');
      const prometheus = await (await fetch(`${server.metricsUrl}/metrics`)).text();
      t.match(prometheus, 'mock_websocket_sessions_total{path="/chat/{room}"} 3', 'Prometheus: sessions per path');
      t.match(prometheus, 'mock_websocket_messages_total{path="/chat/{room}",direction="in"} 5', 'messages per path and direction');
      t.match(prometheus, /mock_websocket_connections\{path="\/wait"\} 0/, 'open connections per path');
    });
  });
}

t.test('bad WebSocket settings stop mock serve with one line naming the input', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'bad.jsonl'), lines({ ts: 0, dir: 'out', text: 'ok' }) + '{"ts": 5, "dir": "sideways"}\n{not json\n');
  const serve = (yaml, extra = []) => {
    writeFileSync(path.join(dir, 'mock.yaml'), `specs: [${JSON.stringify(spec)}]\n${yaml}`);
    return runMock(['serve', '-c', path.join(dir, 'mock.yaml'), '--out', out, '--http-port', '0', '--host', '127.0.0.1', ...extra], { cwd: dir, timeoutMs: 30_000 });
  };
  const script = await serve('websocket: { replay_file: bad.jsonl }\n');
  t.equal(script.code, 1);
  t.match(script.stderr, /websocket\.replay_file: 2 malformed line\(s\): \S*bad\.jsonl:2: dir must be "in" \(the client sends\) or "out" \(the mock sends\) \(got "sideways"\); \S*bad\.jsonl:3: is not JSON/, 'file, line and reason of each');
  const route = await serve('websocket:\n  routes: [{ path: /x, echo: true, script: bad.jsonl }]\n');
  t.equal(route.code, 1);
  t.match(route.stderr, /websocket\.routes\[0\] \(\/x\) must have exactly one of script/);
  const pattern = await serve('websocket:\n  routes: [{ path: /x, messages: [{ match: "(a+)+\\\\1", reply: r }] }]\n');
  t.equal(pattern.code, 1);
  t.match(pattern.stderr, /websocket\.routes\[0\]\.messages\[0\]\.match: .*backreference/, 'a backtracking pattern is refused');

  // replay scripts mock.yaml names are confined to the project, and no error shows what a file holds
  const outside = tmpdir();
  writeFileSync(path.join(outside, 'secret.jsonl'), 'SECRET-LINE-ONE:x:0:0\nSECRET-LINE-TWO\n');
  const project = path.join(dir, 'project');
  mkdirSync(project, { recursive: true });
  symlinkSync(path.join(outside, 'secret.jsonl'), path.join(project, 'linked.jsonl'));
  const confined = async (t, yaml, key) => {
    writeFileSync(path.join(project, 'mock.yaml'), `specs: [${JSON.stringify(spec)}]\n${yaml}`);
    const res = await runMock(['serve', '-c', path.join(project, 'mock.yaml'), '--out', out, '--http-port', '0', '--host', '127.0.0.1'], { cwd: project, timeoutMs: 30_000 });
    t.equal(res.code, 1, `${key}: the start stops`);
    const lines = res.stderr.trim().split('\n');
    t.equal(lines.length, 1, `${key}: one line`);
    t.match(lines[0], new RegExp(`${key.replace(/[[\].]/g, '\\$&')} in \\S*mock\\.yaml leads outside the project`), `${key}: the line names the key`);
    t.notMatch(res.stdout + res.stderr, /SECRET|root:x:0|daemon:/, `${key}: nothing of the file is shown`);
  };
  await confined(t, 'websocket:\n  routes: [{ path: /x, script: /etc/passwd }]\n', 'websocket.routes[0].script');
  await confined(t, `websocket:\n  routes: [{ path: /x, echo: true }, { path: /y, script: ../${path.relative(dir, outside)}/secret.jsonl }]\n`, 'websocket.routes[1].script');
  await confined(t, 'websocket: { replay_file: linked.jsonl }\n', 'websocket.replay_file');
  await confined(t, 'auth:\n  schemes:\n    bearer: { jwt: { jwks_file: /etc/passwd } }\n', 'auth.schemes.bearer.jwt.jwks_file');
  // the environment of whoever starts the server may name a file elsewhere: it is read, and its malformed lines are reported without their text
  writeFileSync(path.join(project, 'mock.yaml'), `specs: [${JSON.stringify(spec)}]\n`);
  const fromEnv = await runMock(['serve', '-c', path.join(project, 'mock.yaml'), '--out', out, '--http-port', '0', '--host', '127.0.0.1'], { cwd: project, timeoutMs: 30_000, env: { MOCK_WS_REPLAY_FILE: path.join(outside, 'secret.jsonl') } });
  t.equal(fromEnv.code, 1);
  t.match(fromEnv.stderr, /websocket\.replay_file: 2 malformed line\(s\): \S*secret\.jsonl:1: is not JSON \(unexpected character\)/, 'MOCK_WS_REPLAY_FILE is not confined; the parse error says where, not what');
  t.notMatch(fromEnv.stdout + fromEnv.stderr, /SECRET/, 'nothing of the file is shown');

  // the ports below come from flags alone
  rmSync(path.join(dir, 'mock.yaml'));
  const clash = await runMock(['serve', '--spec', spec, '--out', out, '--http-port', '4577', '--ws-port', '4577'], { cwd: dir, timeoutMs: 30_000 });
  t.equal(clash.code, 1);
  t.match(clash.stderr, /--http-port and --ws-port are both 4577/);
  const blocker = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => blocker.once('listening', r));
  t.teardown(() => blocker.close());
  const taken = await runMock(['serve', '--spec', spec, '--out', out, '--http-port', '0', '--host', '127.0.0.1', '--ws-port', String(blocker.address().port)], { cwd: dir, timeoutMs: 30_000 });
  t.equal(taken.code, 1);
  t.match(taken.stderr, new RegExp(`port ${blocker.address().port} on 127.0.0.1 is already in use \\(stop the other process or choose another port with --ws-port\\)`));
});

t.test('--proxy-target relays paths no route claims to the real WebSocket API; --record captures it, --replay plays it without the upstream', async (t) => {
  const upstream = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => upstream.once('listening', r));
  const seen = [];
  upstream.on('connection', (socket, req) => {
    seen.push({ url: req.url, authorization: req.headers.authorization, management: req.headers['x-mock-management-token'] });
    socket.send('upstream hello');
    socket.on('message', (data) => (String(data) === 'bye' ? socket.close(4002, 'upstream done') : socket.send(String(data).toUpperCase())));
  });
  const dir = tmpdir();
  const recording = await startMock(['--spec', spec, '--out', out, '--ws-port', '0', '--record', '--proxy-target', `http://127.0.0.1:${upstream.address().port}`], { cwd: dir });
  const c = await connect(`${recording.wsUrl}/feed/live?since=1`, { headers: { authorization: 'Bearer api-token', 'x-mock-management-token': 'admin-secret' } });
  t.equal((await c.next()).text, 'upstream hello', 'the upstream greets through the mock');
  c.send('ping');
  t.equal((await c.next()).text, 'PING', 'messages go both ways');
  c.send('bye');
  t.same(await c.closed, { code: 4002, reason: 'upstream done' }, "the upstream's close is passed on");
  t.same(seen, [{ url: '/feed/live?since=1', authorization: 'Bearer api-token', management: undefined }], 'same path and query, the API credentials, never the mock admin credential');
  const file = path.join(dir, 'fixtures', 'websocket', 'feed', 'live', 'session-0001.jsonl');
  await until(() => existsSync(file), 5000, 'the recorded session');
  await recording.stop();
  await new Promise((r) => upstream.close(r));

  const replaying = await startMock(['--spec', spec, '--out', out, '--ws-port', '0', '--replay'], { cwd: dir });
  t.teardown(() => replaying.stop());
  const again = await connect(`${replaying.wsUrl}/feed/live`);
  t.equal((await again.next()).text, 'upstream hello', 'replayed with the upstream gone');
  again.send('anything');
  t.equal((await again.next()).text, 'PING');
  again.send('anything else');
  t.same(await again.closed, { code: 4002, reason: 'upstream done' }, 'the recorded close');
});

t.test('a recording cut by SIGKILL leaves the fixtures valid and is removed at the next start; SIGTERM saves the sessions still open', async (t) => {
  const dir = tmpdir();
  const folder = (name) => path.join(dir, 'fixtures', 'websocket', 'echo', name);
  const killed = await startMock(['--spec', spec, '--out', out, '--ws-port', '0', '--record'], { cwd: dir });
  const c = await connect(`${killed.wsUrl}/echo/killed`);
  c.send('k'.repeat(40_000));
  await c.next();
  const partial = await until(() => (existsSync(folder('killed')) ? readdirSync(folder('killed')).find((name) => name.startsWith('.recording-')) : undefined), 5000, 'the session on disk');
  killed.child.kill('SIGKILL');
  await killed.stop();
  t.same(readdirSync(folder('killed')), [partial], 'no session file: the killed session only left its hidden file');
  const check = await runMock(['validate-fixtures', '--dir', path.join(dir, 'fixtures')], { cwd: dir, timeoutMs: 30_000 });
  t.equal(check.code, 0, `the fixtures stay valid: ${check.stdout}${check.stderr}`);

  const next = await startMock(['--spec', spec, '--out', out, '--ws-port', '0', '--record'], { cwd: dir });
  t.same(readdirSync(folder('killed')), [], 'the next start removed what the killed recording left');
  const open = await connect(`${next.wsUrl}/echo/open`);
  open.send('still open');
  t.equal((await open.next()).text, 'still open');
  await next.stop();
  const saved = path.join(folder('open'), 'session-0001.jsonl');
  t.ok(existsSync(saved), 'SIGTERM: the session still open was saved before the process ended');
  t.match(readFileSync(saved, 'utf8').trim().split('\n').map((l) => JSON.parse(l)), [{ dir: 'in', text: 'still open' }, { dir: 'out', text: 'still open' }]);
});
