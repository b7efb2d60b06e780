// The views of `mock tui` rendered with fixed data (ink-testing-library): what each tab shows, that
// every line fits the width it is given, and the frame is exactly as tall as asked.
import t from 'tap';
import React from 'react';
import { render } from 'ink-testing-library';
import { OverviewView } from '../../dist/src/tui/views/overview.js';
import { LogView } from '../../dist/src/tui/views/log.js';
import { RoutesView } from '../../dist/src/tui/views/routes.js';
import { UnmatchedView } from '../../dist/src/tui/views/unmatched.js';
import { ChaosView } from '../../dist/src/tui/views/chaos.js';
import { FixturesView } from '../../dist/src/tui/views/fixtures.js';
import { HeaderLine, HelpBar, TabBar } from '../../dist/src/tui/views/chrome.js';

const h = React.createElement;

/** The frame of `element`, and its lines (colors off: ink-testing-library's stdout is no TTY). */
function frame(t, element) {
  const { lastFrame, unmount } = render(element);
  const text = lastFrame();
  unmount();
  return { text, lines: text.split('\n') };
}

function fits(t, lines, width, height) {
  t.equal(lines.length, height, `${height} lines`);
  t.ok(lines.every((l) => l.length <= width), `no line is wider than ${width}: ${lines.map((l) => l.length).join(',')}`);
}

const entry = (n, extra = {}) => ({
  id: `e-${n}`,
  timestamp: new Date(Date.UTC(2026, 0, 1, 10, 0, n)).toISOString(),
  method: 'GET',
  path: `/v1/pets/${n}`,
  status_code: 200,
  response_time_ms: n,
  ...extra,
});

const sample = (n, extra = {}) => ({
  ts: n * 1000,
  total_requests: n * 10,
  requests_per_second: n,
  errors_per_second: n % 3 === 0 ? 1 : 0,
  p95_ms: 5 + n,
  active_connections: 2,
  memory_usage_mb: 80.5,
  cpu_usage_percent: 3.25,
  chaos_injected: { latency: 4, http_error: 0 },
  ...extra,
});

t.test('overview: three charts of the samples, their current and largest values, the gauges', async (t) => {
  const samples = Array.from({ length: 30 }, (_, i) => sample(i + 1));
  const { text, lines } = frame(t, h(OverviewView, { samples, width: 100, height: 20 }));
  fits(t, lines, 100, 20);
  t.match(text, /Requests\/s\s+now 30\s+max 30\s+last 30 s/);
  t.match(text, /Errors\/s\s+now 1\s+max 1/);
  t.match(text, /p95 latency now 35 ms\s+max 35 ms/);
  t.match(text, /█/, 'bars');
  t.match(text, /total 300 · connections 2 · memory 80.5 MB · cpu 3.3% · chaos injected: latency 4/);
  t.notMatch(text, /http_error/, 'kinds never injected are left out');
  // the charts grow with the height and shrink to one line each
  const tall = frame(t, h(OverviewView, { samples, width: 80, height: 38 })).lines;
  const short = frame(t, h(OverviewView, { samples, width: 80, height: 8 })).lines;
  fits(t, tall, 80, 38);
  fits(t, short, 80, 8);
  const rowsOf = (ls) => ls.filter((l) => /[▁▂▃▄▅▆▇█]/.test(l)).length;
  t.ok(rowsOf(tall) > rowsOf(lines) && rowsOf(lines) > rowsOf(short), `chart lines ${rowsOf(tall)} > ${rowsOf(lines)} > ${rowsOf(short)}`);
  t.equal(rowsOf(short), 3, 'a sparkline each when there is no room');
});

t.test('overview before the first sample says it waits', async (t) => {
  const { text } = frame(t, h(OverviewView, { samples: [], width: 60, height: 12 }));
  t.match(text, /waiting for the first metrics sample/);
  t.match(text, /now –/);
});

t.test('log: newest at the bottom, statuses, routes, the unmatched marked; following, paused, scrolled', async (t) => {
  const entries = Array.from({ length: 50 }, (_, i) => entry(i + 1, i === 49 ? { status_code: 404, path: '/nope', route: null, source: 'unmatched' } : { route: 'GET /v1/pets/{petId}', source: 'example' }));
  const { text, lines } = frame(t, h(LogView, { entries, paused: false, pending: 0, offset: 0, width: 100, height: 10 }));
  fits(t, lines, 100, 10);
  t.match(lines[0], /time\s+method\s+path\s+status\s+time\s+following \(50\)/);
  t.match(lines[9], /GET\s+\/nope\s+404\s+50 ms\s+unmatched/, 'the newest is the last line');
  t.match(lines[8], /\/v1\/pets\/49\s+200\s+49 ms\s+example\s+GET \/v1\/pets\/\{petId\}/, 'what made the answer, then its route');
  t.notMatch(text, /\/v1\/pets\/40\b/, 'older entries scrolled out');

  const paused = frame(t, h(LogView, { entries, paused: true, pending: 7, offset: 0, width: 100, height: 10 })).lines;
  t.match(paused[0], /PAUSED, 7 new/);
  const scrolled = frame(t, h(LogView, { entries, paused: false, pending: 0, offset: 10, width: 100, height: 10 })).lines;
  t.match(scrolled[0], /scrolled 10 up/);
  t.match(scrolled[9], /\/v1\/pets\/40\b/, 'ten up: the 40th is the last line');
  const flooded = frame(t, h(LogView, { entries, paused: false, pending: 0, offset: 0, width: 140, height: 10, skipped: 1234 })).lines;
  t.match(flooded[0], /following \(\d+\) · 1234 skipped/, 'entries past the stream rate are said, not hidden');

  const empty = frame(t, h(LogView, { entries: [], paused: false, pending: 0, offset: 0, width: 100, height: 5 })).text;
  t.match(empty, /no requests yet/);
});

t.test('log: a gRPC call shows its status name, a refusal its code and detail', async (t) => {
  const entries = [
    entry(1, { method: 'POST', path: '/routeguide.RouteGuide/GetFeature', status_code: 504, source: 'chaos', grpc: { status: 'DEADLINE_EXCEEDED', code: 4, messages_in: 1, messages_out: 0 } }),
    entry(2, {
      method: 'POST',
      path: '/v1/pets',
      status_code: 400,
      route: 'POST /v1/pets',
      source: 'refusal',
      error_message: "body must have required property 'name'",
      error: { code: 'MOCK_ERR_REQUEST_INVALID', detail: "body must have required property 'name'" },
    }),
  ];
  const { lines } = frame(t, h(LogView, { entries, paused: false, pending: 0, offset: 0, width: 200, height: 3 }));
  fits(t, lines, 200, 3);
  t.match(lines[1], /\/routeguide\.RouteGuide\/GetFeature\s+DEADLINE_EXCEEDED\s+1 ms/, 'the gRPC status name, not 504');
  t.notMatch(lines[1], / 504 /);
  t.match(lines[2], /POST\s+\/v1\/pets\s+400 .*MOCK_ERR_REQUEST_INVALID: body must have required property 'name'/, 'the code, then the detail');
});

const routes = {
  rows: [
    { method: 'GET', path: '/v1/pets', priority: 0, has_fixtures: true, latency_ms: 6.13, request_count: 3, error_count: 0, last_request: null },
    { method: 'POST', path: '/v1/pets', priority: 0, has_fixtures: false, latency_ms: 0, request_count: 0, error_count: 0, last_request: null },
    { method: 'GET', path: '/v1/pets/{petId}', priority: 0, has_fixtures: false, latency_ms: 2, request_count: 2, error_count: 1, last_request: '2026-01-01T10:00:00.000Z', stages: ['traffic-shaping', 'latency'] },
  ],
  coverage: {
    routes: { '/v1/pets': { methods: { GET: { request_count: 3, response_codes: { 200: 3 } }, POST: { request_count: 0, response_codes: {} } } }, '/v1/pets/{petId}': { methods: { GET: { request_count: 2, response_codes: { 200: 1, 404: 1 } } } } },
    total_routes: 2,
    covered_routes: 2,
    coverage_percentage: 100,
  },
};

t.test('routes: coverage, one row per route with its answers, the selection marked', async (t) => {
  const { text, lines } = frame(t, h(RoutesView, { loaded: { data: routes }, selected: 2, width: 100, height: 9 }));
  fits(t, lines, 100, 9);
  t.match(text, /coverage 100% · 2 of 2 paths requested · 3 routes/);
  t.match(text, / GET\s+\/v1\/pets\s+0\s+3\s+0\s+6\.1 ms yes\s+200×3/);
  t.match(text, / POST\s+\/v1\/pets\s+0\s+0\s+0\s+–/);
  t.match(text, /›GET\s+\/v1\/pets\/\{petId\}\s+0\s+2\s+1\s+2 ms\s+200×1 404×1/, 'the selected row');
  t.match(lines[8], /^ GET \/v1\/pets\/\{petId\} · stages: traffic-shaping → latency · last request \d\d:\d\d:\d\d/, 'below: its request chain');
  t.match(frame(t, h(RoutesView, { loaded: { data: routes }, selected: 0, width: 100, height: 9 })).lines[8], /GET \/v1\/pets · last request –/, 'a server without stages says nothing of them');
  t.match(frame(t, h(RoutesView, { loaded: {}, selected: 0, width: 60, height: 4 })).text, /loading routes/);
  t.match(frame(t, h(RoutesView, { loaded: { error: 'GET /__mock/dashboard: HTTP 500' }, selected: 0, width: 60, height: 4 })).text, /GET \/__mock\/dashboard: HTTP 500/);
});

const unmatched = [
  {
    entry: entry(5, { method: 'GET', path: '/v1/pet/1', status_code: 404, route: null }),
    closest: [
      { method: 'GET', path: '/v1/pets/{petId}', source: 'description', score: 0.625, mismatches: [{ field: 'path', expected: 'pets', actual: 'pet', reason: 'segment 2 is "pet", the route has "pets"' }] },
      { method: 'GET', path: '/v1/pets', source: 'custom_route', score: 2, mismatches: [{ field: 'header', name: 'x-tenant', reason: 'x-tenant is missing' }] },
    ],
  },
  { entry: entry(4, { method: 'POST', path: '/v2/orders', status_code: 404, route: null }), closest: [] },
];

t.test('unmatched: newest first, and the selected request\'s closest routes with the mismatches', async (t) => {
  const { text, lines } = frame(t, h(UnmatchedView, { loaded: { data: unmatched }, selected: 0, width: 100, height: 14 }));
  fits(t, lines, 100, 14);
  t.match(text, /2 unmatched requests, newest first/);
  t.match(text, /›\S+\s+GET\s+\/v1\/pet\/1\s+404\s+2 close routes/);
  t.match(text, /GET \/v1\/pets\/\{petId\}\s+description, score 0\.63/);
  t.match(text, /GET \/v1\/pets\s+custom_route, score 2\b/);
  t.match(text, /path: segment 2 is "pet", the route has "pets"/);
  t.match(text, /header x-tenant: x-tenant is missing/);
  const second = frame(t, h(UnmatchedView, { loaded: { data: unmatched }, selected: 1, width: 100, height: 14 })).text;
  t.match(second, /POST \/v2\/orders: no route comes close/);
  t.match(frame(t, h(UnmatchedView, { loaded: { data: [] }, selected: 0, width: 100, height: 5 })).text, /no unmatched requests/);
  t.match(frame(t, h(UnmatchedView, { loaded: { error: 'GET /__mock/unmatched: no admin endpoint' }, selected: 0, width: 100, height: 5 })).text, /no admin endpoint/);
});

const chaos = {
  profiles: [
    { name: 'slow_3g', description: 'Slow 3G', builtin: true },
    { name: 'flaky_wifi', description: 'A crowded Wi-Fi', builtin: true },
    { name: 'mine', description: 'my own', builtin: false },
  ],
  status: { active_profile: 'flaky_wifi', enabled_blocks: ['latency 20+80 ms', 'fault_injection'], total_faults: 3, by_type: { packet_loss: 2, tcp_close: 1, timeout: 0 } },
};

t.test('chaos: what is on, the faults injected, the profiles with the active one and the selection', async (t) => {
  const { text, lines } = frame(t, h(ChaosView, { loaded: { data: chaos }, selected: 2, notice: { text: 'applied flaky_wifi', failed: false }, width: 90, height: 10 }));
  fits(t, lines, 90, 10);
  t.match(lines[0], /applied flaky_wifi/);
  t.match(text, /active profile: flaky_wifi · on: latency 20\+80 ms, fault_injection/);
  t.match(text, /faults injected: 3 \(packet_loss 2, tcp_close 1\)/);
  t.match(text, / ● flaky_wifi\s+built-in\s+A crowded Wi-Fi/);
  t.match(text, /›  mine\s+custom\s+my own/);
  const none = frame(t, h(ChaosView, { loaded: { data: { ...chaos, status: { ...chaos.status, active_profile: null, enabled_blocks: [] } } }, selected: 0, width: 90, height: 10 })).text;
  t.match(none, /active profile: none · on: nothing/);
  t.notMatch(none, /●/);
});

t.test('fixtures: the settings and one row per file', async (t) => {
  const items = [{ id: 'a1', protocol: 'http', method: 'GET', path: '/v1/pets', saved_at: '2026-01-01T10:00:00.000Z', file_size: 2048, file_path: 'http/get-v1-pets.json' }];
  const { text, lines } = frame(t, h(FixturesView, { loaded: { data: { items, settings: { dir: '/p/fixtures', record_enabled: true, replay_enabled: false, total_fixtures: 1 } } }, selected: 0, width: 100, height: 6 }));
  fits(t, lines, 100, 6);
  t.match(text, /1 fixture in \/p\/fixtures · record on · replay off/);
  t.match(text, /›http\s+GET\s+\/v1\/pets\s+2026-01-01 10:00:00\s+2\.0 KiB http\/get-v1-pets\.json/);
  t.match(frame(t, h(FixturesView, { loaded: { data: { items: [], settings: { dir: 'f', record_enabled: false, replay_enabled: false, total_fixtures: 0 } } }, selected: 0, width: 100, height: 4 })).text, /no fixtures: mock serve --record/);
});

t.test('header, tab bar and help bar', async (t) => {
  const header = frame(t, h(HeaderLine, { adminUrl: 'http://127.0.0.1:9080', stream: { mode: 'polling', detail: 'no stream at /__mock/ws (HTTP 404)' }, width: 100, height: 39 })).text;
  t.match(header, /mock tui\s+http:\/\/127\.0\.0\.1:9080\s+◐ polling every 1 s: no stream at \/__mock\/ws \(HTTP 404\)\s+100×40/);
  t.match(frame(t, h(HeaderLine, { adminUrl: 'u', stream: { mode: 'websocket' }, width: 60, height: 23 })).text, /● live \(websocket\)/);
  t.match(frame(t, h(TabBar, { current: 4, width: 80 })).text, /1 Overview\s+2 Log\s+3 Routes\s+4 Unmatched\s+5 Chaos\s+6 Fixtures/);
  const chaosKeys = frame(t, h(HelpBar, { tab: 'Chaos', width: 100 })).text;
  t.match(chaosKeys, /⏎ apply\s+x reset\s+1-6\/Tab tabs\s+↑↓\/jk move\s+r refresh\s+\? help\s+q quit/);
  t.match(frame(t, h(HelpBar, { tab: 'Log', width: 100 })).text, /space pause\s+G follow/);
  t.ok(frame(t, h(HelpBar, { tab: 'Log', width: 30 })).text.length <= 30, 'cut to the width');
});

t.test('control characters from the network are shown as escapes, never sent to the terminal', async (t) => {
  // a path through the gRPC bridge (percent-decoded) once set the terminal's title: ESC ] 2 ; … BEL; CSI 2 J clears it
  const hostile = [entry(1, { path: '/x\u001b]2;pwned\u0007/\u009b2J', method: 'GET\u001b[31m' })];
  const { text, lines } = frame(t, h(LogView, { entries: hostile, paused: false, pending: 0, offset: 0, width: 100, height: 6 }));
  fits(t, lines, 100, 6);
  t.notOk(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(text), 'no control character in the frame');
  t.match(text, /\/x\\x1b\]2;pwned\\x07\/\\x9b2J/, 'the path shows where they were');
});
