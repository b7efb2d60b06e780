// runtime/chain: one stage list. Each stage file declares its slot and the kinds of exchange it
// acts on; each server's list is derived from those declarations (createStages(context, kind)),
// and the slot table of docs/architecture.md is held to them.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SLOTS, createStages } from '../../../dist/runtime/chain/index.js';
import { LiveState } from '../../../dist/runtime/chain/settings/index.js';
import { root } from '../../helpers/cli.js';

/** A server's context with everything configured, so that no stage leaves itself out. */
const everything = {
  live: new LiveState(),
  logger: { warn() {}, info() {}, error() {}, debug() {} },
  engine: () => ({}),
  openConnections: () => 0,
  settings: {
    sandboxAnswers: true,
    cors: { allowedOrigins: ['*'], credentials: true, maxAgeSeconds: 600, proxied: false },
    maxBodyBytes: 1,
    maxConnections: 1,
    proxyRules: [{ pattern: '/api/**', upstream_url: 'http://upstream.test' }],
    ai: {
      endpoint: { url: 'http://model.test/v1/chat/completions', shown: 'http://model.test/v1/chat/completions' },
      model: 'm',
      timeoutMs: 1000,
      operations: {},
      ragExamples: 0,
      cacheMaxBytes: 1024 * 1024,
    },
    tenant: { id: 't', plan: 'p', requestsPerMinute: 1, concurrent: 1 },
  },
  tokenIssuer: { options: { path: '/oauth/token' } },
  fixtures: { store: {}, recorder: {} },
  recorder: {},
  stateful: { machines: [{}] },
  contractDiff: {},
  plugins: { options: { middleware: [{ plugin: 'p', action: 'a' }], requestValidators: [{ plugin: 'p', action: 'a' }], responseModifiers: [{ plugin: 'p', action: 'a' }] } },
  entities: { size: 1 },
  callbacks: {},
};

// the lists servers were given by hand before the declarations (STAGES, OVER_HTTP_STAGES, CALL_STAGES), in their order,
// but cors, moved outside protective chaos (issue 37) so that a page reads their refusals, contract-diff, added
// since (issue 39) around the upstream stages, the plugin stages (issue 40), ai (issue 41), last, callbacks (issue 42),
// and a hosted mock's tenant-quota (issue 41), in front of protective chaos
const BEFORE = {
  description: [
    'sandbox',
    'cors',
    'tenant-quota',
    'circuit-breaker',
    'bulkhead',
    'rate-limit',
    'connection-limit',
    'packet-loss',
    'traffic-shaping',
    'token-endpoint',
    'security',
    'plugin-middleware',
    'plugin-response',
    'latency',
    'overrides',
    'replay',
    'record',
    'recorder',
    'callbacks',
    'stateful',
    'entities',
    'route-chaos',
    'faults',
    'fault-injection',
    'mocks',
    'contract-diff',
    'proxy-rules',
    'continuum',
    'proxy',
    'plugin-validator',
    'ai',
  ],
  http: ['cors', 'circuit-breaker', 'bulkhead', 'rate-limit', 'connection-limit', 'packet-loss', 'traffic-shaping', 'latency', 'recorder', 'faults', 'fault-injection'],
  call: ['cors', 'circuit-breaker', 'bulkhead', 'rate-limit', 'connection-limit', 'packet-loss', 'latency', 'faults', 'fault-injection'],
};

t.test('a WebSocket upgrade gets the protective stages, latency and the faults, none that needs an HTTP body or answer', async (t) => {
  t.same(
    createStages(everything, 'upgrade').map((stage) => stage.name),
    ['circuit-breaker', 'bulkhead', 'rate-limit', 'connection-limit', 'packet-loss', 'latency', 'faults', 'fault-injection'],
  );
});

for (const [kind, names] of Object.entries(BEFORE)) {
  t.test(`the ${kind} kind gets the stages it got before, stage for stage, in order`, async (t) => {
    t.same(
      createStages(everything, kind).map((stage) => stage.name),
      names,
    );
  });
}

t.test('each stage is named after its slot', async (t) => {
  for (const stage of createStages(everything, 'description')) t.equal(stage.name, stage.slot);
});

t.test('a server of another protocol has none of the stages that answer from a description, even when its context has an engine', async (t) => {
  const names = createStages(everything, 'http').map((stage) => stage.name);
  for (const name of ['security', 'stateful', 'mocks', 'continuum', 'overrides', 'replay', 'proxy']) t.notOk(names.includes(name), name);
});

/** The slot table of docs/architecture.md ("The request chain"): per row, the slots named in its first cell and the kinds in its second. */
function readmeSlotTable() {
  const lines = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8').split('\n');
  const header = lines.indexOf('| slot | kinds | stage | status |');
  const rows = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [slots, kinds] = line.split('|').slice(1, 3);
    rows.push({ slots: [...slots.matchAll(/`([^`]+)`/g)].map((m) => m[1]), kinds: kinds.trim() });
  }
  return { header, rows };
}

t.test("docs/architecture.md's slot table names every slot, in SLOTS's order, with the kinds its stage declares", async (t) => {
  const { header, rows } = readmeSlotTable();
  t.not(header, -1, 'the table is there');
  t.same(
    rows.flatMap((row) => row.slots),
    [...SLOTS],
  );
  const kindsOf = (slot) => ['description', 'http', 'call', 'upgrade'].filter((kind) => createStages(everything, kind).some((stage) => stage.slot === slot));
  for (const row of rows) {
    for (const slot of row.slots) t.equal(row.kinds, kindsOf(slot).join(', '), `${slot}'s kinds`);
  }
});
