// The whole `mock tui` screen (App) with a stand-in admin API and a store fed by the test: keys
// switch tabs, move, pause the log, apply a chaos profile; the frame is one line shorter than the
// terminal and follows its size.
import t from 'tap';
import React from 'react';
import { render } from 'ink-testing-library';
import { App } from '../../dist/src/tui/app.js';
import { LiveStore } from '../../dist/src/tui/store.js';
import { until } from '../helpers/wait.js';

const h = React.createElement;
const entry = (n) => ({ id: `e-${n}`, timestamp: new Date(Date.UTC(2026, 0, 1, 10, 0, n % 60)).toISOString(), method: 'GET', path: `/v1/pets/${n}`, status_code: 200, response_time_ms: 2 });

function fakeApi() {
  const calls = [];
  let active = null;
  return {
    calls,
    async routes() {
      calls.push('routes');
      return { rows: [{ method: 'GET', path: '/v1/pets', priority: 0, has_fixtures: false, latency_ms: 1, request_count: 1, error_count: 0, last_request: null }], coverage: { routes: {}, total_routes: 1, covered_routes: 1, coverage_percentage: 100 } };
    },
    async unmatched() {
      calls.push('unmatched');
      throw new Error('GET /__mock/unmatched: no admin endpoint GET /__mock/api/unmatched');
    },
    async chaos() {
      calls.push('chaos');
      return {
        profiles: [
          { name: 'slow_3g', description: 'Slow 3G', builtin: true },
          { name: 'fast_3g', description: 'Fast 3G', builtin: true },
          { name: 'cable', description: 'Cable', builtin: true },
        ],
        status: { active_profile: active, enabled_blocks: [], total_faults: 0, by_type: {} },
      };
    },
    async fixtures() {
      calls.push('fixtures');
      return { items: [], settings: { dir: '/f', record_enabled: false, replay_enabled: false, total_fixtures: 0 } };
    },
    async applyProfile(name) {
      calls.push(`apply ${name}`);
      active = name;
      return { applied: name };
    },
    async resetChaos() {
      calls.push('reset');
      active = null;
    },
  };
}

async function start(t, { size = { columns: 100, rows: 24 } } = {}) {
  const api = fakeApi();
  const store = new LiveStore({ minIntervalMs: 20 });
  const app = render(h(App, { api, store, adminUrl: 'http://127.0.0.1:9080', size, refreshMs: 60_000 }));
  t.teardown(() => {
    app.unmount();
    store.close();
  });
  const screen = () => app.lastFrame() ?? '';
  const shows = (pattern, what = String(pattern)) => until(() => pattern.test(screen()), 5000, `the screen to show ${what}:\n${screen()}`);
  const press = async (keys) => {
    app.stdin.write(keys);
    await new Promise((r) => setTimeout(r, 30));
  };
  // keys reach the app once its input hook listens (an effect, run after the first frame)
  await until(() => app.stdin.listenerCount('readable') > 0, 5000, 'the app to read keys');
  return { api, store, app, screen, shows, press };
}

t.test('starts on the overview with the tab bar, the help bar, one line short of the terminal', async (t) => {
  const { screen, shows } = await start(t);
  await shows(/Requests\/s/);
  const lines = screen().split('\n');
  t.equal(lines.length, 23, '24 rows: a frame of 23 lines');
  t.match(lines[0], /mock tui\s+http:\/\/127\.0\.0\.1:9080\s+… connecting\s+100×24/);
  t.match(lines[1], /1 Overview\s+2 Log/);
  t.match(lines.at(-1), /1-6\/Tab tabs\s+↑↓\/jk move\s+r refresh\s+\? help\s+q quit/);
});

t.test('number keys, Tab and Shift-Tab switch tabs; each tab fetches its data', async (t) => {
  const { api, shows, press } = await start(t);
  await press('3');
  await shows(/coverage 100% · 1 of 1 paths requested/);
  await press('\t');
  await shows(/no admin endpoint GET \/__mock\/api\/unmatched/, 'the unmatched error in its view');
  await press('\u001B[Z'); // Shift-Tab
  await shows(/coverage 100%/);
  await press('6');
  await shows(/0 fixtures in \/f · record off · replay off/);
  t.same(api.calls.filter((c) => c !== 'routes'), ['unmatched', 'fixtures']);
});

t.test('chaos: j moves, Enter applies the selected profile, x resets; the view says so', async (t) => {
  const { api, shows, press } = await start(t);
  await press('5');
  await shows(/›\s+slow_3g/);
  await press('j');
  await press('j');
  await shows(/›\s+cable/);
  await press('\r');
  await shows(/applied cable/);
  await shows(/active profile: cable/);
  t.ok(api.calls.includes('apply cable'));
  await press('x');
  await shows(/chaos reset to the settings of the start/);
  await shows(/active profile: none/);
  // keys typed faster than they are read arrive in one chunk
  await press('kk\r');
  await shows(/applied slow_3g/);
  t.ok(api.calls.includes('apply slow_3g'));
});

t.test('the live log: entries as they arrive, space pauses while they keep counting, scrolling', async (t) => {
  const { store, shows, press, screen } = await start(t);
  await press('2');
  await shows(/no requests yet/);
  store.addLogs([entry(1), entry(2)]);
  await shows(/\/v1\/pets\/2\s+200/);
  await press(' ');
  await shows(/PAUSED, 0 new/);
  store.addLogs([entry(3), entry(4), entry(5)]);
  await shows(/PAUSED, 3 new/);
  t.notMatch(screen(), /\/v1\/pets\/5/, 'the paused log stays as it was');
  await press(' ');
  await shows(/\/v1\/pets\/5\s+200/);
  await shows(/following \(5\)/);
  store.addLogs(Array.from({ length: 40 }, (_, i) => entry(10 + i)));
  await shows(/\/v1\/pets\/49\s+200/);
  await press('k');
  await shows(/scrolled 1 up/);
  t.notMatch(screen(), /\/v1\/pets\/49\s/, 'one up: the newest is below');
  await press('G');
  await shows(/following \(45\)/);
});

t.test('the live log: / filters by path, status, method and protocol; Esc clears; the help bar says so', async (t) => {
  const { store, shows, press, screen } = await start(t, { size: { columns: 140, rows: 24 } });
  await press('2');
  await shows(/\/ filter\s+esc clear\s+space pause/, 'the keys in the help bar');
  store.addLogs([
    entry(1),
    { ...entry(2), path: '/v1/nope', status_code: 404, route: null },
    { ...entry(3), method: 'POST', path: '/graphql', graphql: { operation_name: 'Me', operation_type: 'query' } },
    { ...entry(4), method: 'POST', path: '/library.v1.Library/GetBook', status_code: 504, route: 'POST /library.v1.Library/GetBook', grpc: { status: 'DEADLINE_EXCEEDED', messages_in: 1, messages_out: 0 } },
    { ...entry(5), path: '/echo/one', status_code: 101, route: 'WS /echo/{any}', websocket: { messages_in: 1, messages_out: 1, close_code: 1000, close_reason: '', played: 'echo' } },
  ]);
  await shows(/following \(5\)/);
  t.match(screen(), /\/graphql\s+200.*query Me/, 'a GraphQL entry: its operation in the route column');
  t.match(screen(), /DEADLINE_EXCEEDED +2 ms +library\.v1\.Library\/GetBook\n/, 'a gRPC entry: its status name and its method, in line with the other rows');
  t.match(screen(), /\/echo\/one\s+101.*WS \/echo\/\{any\}/, 'a WebSocket entry: its route');

  const rows = () => screen().split('\n').filter((l) => /\d\d:\d\d:\d\d/.test(l));
  await press('/');
  await shows(/ \/▏/, 'the prompt');
  await press('grpc');
  await shows(/ \/grpc▏/);
  t.same(rows().length, 1, 'as typed: only the gRPC call');
  t.match(rows()[0], /GetBook/);
  await press('\r');
  await shows(/filter grpc · 1 of 5/, 'Enter keeps the filter, named above the log');
  await press('j');
  t.match(screen(), /filter grpc/, 'keys act again once the prompt is closed');

  await press('\u001B');
  await shows(/following \(5\)/);
  t.notMatch(screen(), /filter grpc/, 'Esc clears it');
  t.equal(rows().length, 5, 'every entry again');

  // keys typed faster than they are read: one chunk, the words a filter of each kind
  await press('/4xx nope\r');
  await shows(/filter 4xx nope · 1 of 5/);
  t.match(rows()[0], /\/v1\/nope\s+404/, 'a status class and a path substring');
  await press('/');
  for (let i = 0; i < 8; i++) await press('\u007F');
  await press('POST\r');
  await shows(/filter POST · 2 of 5/, 'backspace edits it; a method');
  await press('/');
  for (let i = 0; i < 4; i++) await press('\u007F');
  await press('ws\r');
  await shows(/filter ws · 1 of 5/, 'a protocol');
  await press('/');
  for (let i = 0; i < 2; i++) await press('\u007F');
  await press('/none\r');
  await shows(/no entry matches the filter: Esc clears it/);
  await press('\u001B');
  await shows(/following \(5\)/);
  await press('?');
  await shows(/\/\s+Log: filter by words/, 'the help lists the key');
});

t.test('? shows every key and hides it again; q quits', async (t) => {
  const { app, shows, press } = await start(t);
  await press('?');
  await shows(/Keys[\s\S]*Enter\s+Chaos: apply the selected profile/);
  await press('?');
  await shows(/Requests\/s/);
  await press('q');
  // ink-testing-library has no waitUntilExit: an app that ended stops reading keys
  await until(() => app.stdin.listenerCount('readable') === 0, 5000, 'the app to end');
  t.pass('q ends the app');
});

t.test('Ctrl-C quits like q (the terminal is in raw mode: it is a key, not a signal)', async (t) => {
  const { app, press } = await start(t);
  await press('j');
  t.equal(app.stdin.listenerCount('readable'), 1, 'other keys do not');
  await press('\u0003');
  await until(() => app.stdin.listenerCount('readable') === 0, 5000, 'the app to end');
  t.pass('Ctrl-C ends the app');
});

t.test('a terminal too small says so instead of a broken layout', async (t) => {
  const { shows } = await start(t, { size: { columns: 30, rows: 6 } });
  await shows(/terminal too small \(30×6\)/);
});
