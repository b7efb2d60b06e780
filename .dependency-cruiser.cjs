/**
 * The architecture's boundaries, checked by test/architecture/boundaries.test.js with
 * dependency-cruiser over the TypeScript sources (type-only imports included, parsed by swc).
 */
const RUNTIME_FACES = '^(runtime/index\\.ts|runtime/config-checks\\.ts)$';

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
      comment: 'The CLI reaches the compiler and the runtime through their faces: index.ts, and the light faces compiler/serving.ts (staleness and rebuilds) and the runtime\'s configuration checks.',
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
    exclude: { path: '^(dist|node_modules)/' },
  },
};
