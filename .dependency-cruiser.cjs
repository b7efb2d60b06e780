/**
 * The architecture's boundaries, checked by test/architecture/boundaries.test.js with
 * dependency-cruiser over the TypeScript sources (type-only imports included, parsed by swc).
 */
const RUNTIME_FACES = '^(runtime/index\\.ts|runtime/config-checks\\.ts|runtime/store/index\\.ts|runtime/store/redis-stores\\.ts)$';
/** The packages whose code ships bundled (compiler/bundled/): the one part of node_modules cruised. */
const BUNDLED = '(json-schema-to-typescript|ts-proto|ts-proto-descriptors|ts-poet|@redocly/openapi-core)';

module.exports = {
  forbidden: [
    {
      name: 'compiler-and-runtime-apart',
      comment: 'The compiler and the runtime meet only in common/ (generated code imports common/contract).',
      severity: 'error',
      from: { path: '^runtime/' },
      to: { path: '^(compiler|src)/' },
    },
    { name: 'compiler-and-runtime-apart', severity: 'error', from: { path: '^compiler/' }, to: { path: '^(runtime|src)/' } },
    { name: 'compiler-and-runtime-apart', severity: 'error', from: { path: '^common/' }, to: { path: '^(compiler|runtime|src)/' } },
    {
      name: 'src-through-faces',
      comment: 'The CLI reaches the compiler and the runtime through their faces: index.ts, and the light faces compiler/serving.ts (staleness and rebuilds), the runtime\'s configuration checks and its store interface (runtime/store, which the SDK exports; runtime/store/redis-stores.ts, loaded only for state.store redis so that the memory store never loads the Redis client).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(compiler|runtime)/', pathNot: `^compiler/(index|serving)\\.ts$|${RUNTIME_FACES}` },
    },
    {
      name: 'uws-in-its-folder',
      comment: 'uWebSockets.js is loaded, probed and typed in one folder, which the HTTP and the WebSocket adapters share.',
      severity: 'error',
      from: { path: '^runtime/', pathNot: '^runtime/servers/uws/' },
      to: { path: '(^|node_modules/)uWebSockets\\.js(/|$)' },
    },
    {
      name: 'bundled-libraries-in-their-folder',
      comment: 'json-schema-to-typescript and ts-proto (with ts-poet and ts-proto-descriptors) are development dependencies whose code npm run build bundles into compiler/bundled/ (scripts/bundle-libraries.js): a consumer install has not the packages, so nothing else imports them.',
      severity: 'error',
      from: { pathNot: '^compiler/bundled/' },
      to: { path: `^node_modules/${BUNDLED}/` },
    },
    {
      name: 'stages-not-servers',
      comment: 'Stages work on the Exchange whatever the protocol: never on a server adapter or a server.',
      severity: 'error',
      from: { path: '^runtime/chain/stages/' },
      to: { path: '^runtime/servers/' },
    },
    {
      name: 'chain-not-terminals',
      comment: 'The chain is protocol-neutral: stages read the description through its interface in runtime/chain/description.ts, which the OpenAPI engine implements; no chain file imports a terminal.',
      severity: 'error',
      from: { path: '^runtime/chain/' },
      to: { path: '^runtime/terminal/' },
    },
    {
      name: 'terminals-not-servers',
      comment: 'A terminal answers without a transport: the servers carry bytes to the chain and write what its terminal answers (a gRPC call\'s answer too), never the other way round.',
      severity: 'error',
      from: { path: '^runtime/terminal/' },
      to: { path: '^runtime/servers/' },
    },
    {
      name: 'chain-not-control',
      comment: 'The chain never imports the control plane (admin, auth, logging, metrics): what both need lives in chain/ or common/, and control implements the interfaces the chain declares (the request log its RequestLogWriter).',
      severity: 'error',
      from: { path: '^runtime/chain/' },
      to: { path: '^runtime/control/' },
    },
    {
      name: 'terminals-apart',
      comment: 'A terminal answers one protocol: it imports no other protocol\'s terminal folder; what two share (the fake data GraphQL and gRPC generate) is a folder of its own, reached through its index.',
      severity: 'error',
      from: { path: '^runtime/terminal/([^/]+)/' },
      to: { path: '^runtime/terminal/', pathNot: ['^runtime/terminal/$1/', '^runtime/terminal/fake-data/index\\.ts$'] },
    },
    {
      name: 'exchange-and-match-self-contained',
      comment: 'The Exchange and the one matching module import nothing else from the runtime.',
      severity: 'error',
      from: { path: '^runtime/(chain/exchange|match)/' },
      to: { path: '^runtime/', pathNot: '^runtime/$1/' },
    },
    {
      name: 'store-self-contained',
      comment: 'The store interface and its memory implementation import nothing else from the runtime: a shared implementation (Redis) replaces them without reaching into the rest.',
      severity: 'error',
      from: { path: '^runtime/store/' },
      to: { path: '^runtime/', pathNot: '^runtime/store/' },
    },
    {
      name: 'state-in-stores',
      comment: 'State a request or the admin API changes lives in the stores (runtime/store): no other runtime file keeps an LRU of its own, save the caches of answers and prepared documents, which hold nothing a client could not have again.',
      severity: 'error',
      from: { path: '^runtime/', pathNot: '^runtime/(store/|terminal/openapi/response-cache\\.ts$|terminal/graphql/engine\\.ts$|terminal/graphql/answer-cache\\.ts$)' },
      to: { path: '(^|node_modules/)lru-cache(/|$)' },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // packages stay in the graph (not followed): the rules on which folder may import them need them
    exclude: { path: '^dist/' },
  },
};
