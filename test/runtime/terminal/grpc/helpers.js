// Shared by the gRPC engine tests (not a test file itself).
import protobuf from 'protobufjs';
import { GrpcEngine } from '../../../../dist/runtime/terminal/grpc/index.js';

export const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const CORPUS = new URL('../../../../../shared/corpus/proto/', import.meta.url).pathname;
const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;

/** The Root as the server gets it: parsed with the .proto's field names, through grpc.json (toJSON, fromJSON). */
export function rootOf(files) {
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => {
    if (target.startsWith('google/protobuf/')) return target;
    for (const dir of [CORPUS, FIXTURES]) if (target.startsWith(dir)) return target;
    return CORPUS + target;
  };
  const paths = files.map((f) => (f.startsWith('kitchen') ? FIXTURES + f : CORPUS + f));
  root.loadSync(paths, { keepCase: true });
  return protobuf.Root.fromJSON(JSON.parse(JSON.stringify(root.toJSON())));
}

export const CORPUS_FILES = ['examples/route_guide.proto', 'examples/helloworld.proto', 'examples/hellostreamingworld.proto', 'grpc/testing/test.proto', 'grpc/health/v1/health.proto'];

export const defaults = { seed: 42, now: () => NOW, rules: [], stream: { count: 3, intervalMs: 50 } };

export const engineOf = (root, settings = {}) => new GrpcEngine(root, { ...defaults, ...settings });

/** proto-loader's conversion: what a grpc-js client receives from what the handler returned. */
export const LOADER = { keepCase: true, longs: String, enums: String, bytes: Buffer, defaults: true, oneofs: true };

/** The message as it travels: fromObject (what proto-loader's serializer does), verify, encode, decode. */
export function wire(t, type, object, label = type.name) {
  const message = type.fromObject(object);
  const problem = type.verify(message);
  t.equal(problem, null, `${label}: Type.verify accepts it`);
  const decoded = type.decode(type.encode(message).finish());
  t.same(type.toObject(decoded, LOADER), type.toObject(message, LOADER), `${label}: round-trips through encode/decode`);
  return type.toObject(decoded, LOADER);
}

/** Every value the object sets survives fromObject: nothing silently dropped (an unknown enum name, a bad long). */
export function survives(t, type, object, label = type.name) {
  const back = type.toObject(type.fromObject(object), { keepCase: true, longs: String, enums: String, bytes: Buffer, oneofs: true });
  t.same(normalize(back), normalize(object), `${label}: every value it sets is what the client gets`);
}

function normalize(value) {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `bytes:${Buffer.from(value).toString('base64')}`;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(normalize);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([, v]) => !(Array.isArray(v) && v.length === 0)).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, normalize(v)]));
  return value;
}
