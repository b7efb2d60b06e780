// src/drift/compare/proto: the .proto comparer of `mock contract-diff compare` (issue 39), on
// versions of the corpus's .proto files edited here.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { compareProto } from '../../dist/src/drift/compare/proto/index.js';
import { corpus, tmpdir } from '../helpers/cli.js';

const routeGuide = readFileSync(path.join(corpus, 'proto/examples/route_guide.proto'), 'utf8');
// an enum beside the example's messages, for the enum checks
const withEnum = `${routeGuide}\nenum Terrain {\n  TERRAIN_UNSPECIFIED = 0;\n  TERRAIN_LAND = 1;\n  TERRAIN_WATER = 2;\n}\n`;

/** Writes both versions as route_guide.proto into a fresh folder each and compares the files. */
async function changes(old, next) {
  const dir = tmpdir();
  for (const [side, text] of [
    ['old', old],
    ['new', next],
  ]) {
    mkdirSync(path.join(dir, side));
    writeFileSync(path.join(dir, side, 'route_guide.proto'), text);
  }
  const found = await compareProto(path.join(dir, 'old/route_guide.proto'), path.join(dir, 'new/route_guide.proto'));
  return found.map(({ id, severity, kind, location }) => [id, severity, kind === 'proto' ? location : `${kind}?`]);
}

const edit = (text, from, to) => {
  if (!text.includes(from)) throw new Error(`the corpus file no longer holds ${from}`);
  return text.replace(from, to);
};

t.test('identical and reformatted or reordered files report nothing', async (t) => {
  t.same(await changes(routeGuide, routeGuide), []);
  const stripped = routeGuide.replace(/\/\/.*$/gm, '').replace(/\n\s*\n/g, '\n');
  const blocks = stripped.split(/(?=^message )/m);
  const reordered = [blocks[0], ...blocks.slice(1).reverse()].join('\n').replace(/int32 latitude = 1;/, 'int32   latitude=1 ;');
  t.not(reordered, routeGuide);
  t.same(await changes(routeGuide, reordered), []);
});

t.test('services and methods', async (t) => {
  t.same(await changes(routeGuide, edit(routeGuide, /service RouteGuide \{[\s\S]*?\n\}/.exec(routeGuide)[0], '')), [['service-removed', 'error', 'routeguide.RouteGuide']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'rpc GetFeature(Point) returns (Feature) {}', '')), [['method-removed', 'error', 'routeguide.RouteGuide/GetFeature']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'rpc GetFeature(Point) returns (Feature) {}', 'rpc GetFeature(Point) returns (Feature) {}\n  rpc GetPoint(Point) returns (Point);')), [
    ['method-added', 'info', 'routeguide.RouteGuide/GetPoint'],
  ]);
  t.same(await changes(routeGuide, edit(routeGuide, 'rpc GetFeature(Point)', 'rpc GetFeature(Rectangle)')), [['method-request-type-changed', 'error', 'routeguide.RouteGuide/GetFeature']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'returns (Feature) {}', 'returns (RouteSummary) {}')), [['method-response-type-changed', 'error', 'routeguide.RouteGuide/GetFeature']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'rpc RecordRoute(stream Point)', 'rpc RecordRoute(Point)')), [['method-client-streaming-changed', 'error', 'routeguide.RouteGuide/RecordRoute']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'rpc ListFeatures(Rectangle) returns (stream Feature)', 'rpc ListFeatures(Rectangle) returns (Feature)')), [
    ['method-server-streaming-changed', 'error', 'routeguide.RouteGuide/ListFeatures'],
  ]);
});

t.test('messages and fields', async (t) => {
  const extra = `${routeGuide}\nmessage Area {\n  Rectangle bounds = 1;\n}\n`;
  t.same(await changes(extra, routeGuide), [['message-removed', 'error', 'routeguide.Area']]);
  t.same(await changes(routeGuide, extra), [['message-added', 'info', 'routeguide.Area']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'string message = 2;', '')), [['field-removed', 'error', 'routeguide.RouteNote.message']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'int32 longitude = 2;', 'int32 longitude = 2;\n  int32 altitude = 3;')), [['field-added', 'info', 'routeguide.Point.altitude']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'string name = 1;', 'int64 name = 1;')), [['field-type-changed', 'error', 'routeguide.Feature.name']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'Point location = 2;', 'Rectangle location = 2;')), [['field-type-changed', 'error', 'routeguide.Feature.location']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'int32 latitude = 1;', 'int64 latitude = 1;')), [['field-type-changed-wire-compatible', 'warning', 'routeguide.Point.latitude']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'int32 latitude = 1;', 'int32 latitude = 3;')), [['field-number-changed', 'error', 'routeguide.Point.latitude']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'Point location = 2;', 'repeated Point location = 2;')), [['field-label-changed', 'error', 'routeguide.Feature.location']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'int32 distance = 3;', 'optional int32 distance = 3;')), [['field-label-changed', 'error', 'routeguide.RouteSummary.distance']]);
  t.same(await changes(routeGuide, edit(routeGuide, 'string message = 2;', 'int64 priority = 2;')), [['field-number-reused', 'error', 'routeguide.RouteNote.priority']]);
  // same number, same type: the binary wire is unchanged, JSON and generated code are not
  t.same(await changes(routeGuide, edit(routeGuide, 'string message = 2;', 'string text = 2;')), [['field-renamed', 'warning', 'routeguide.RouteNote.message']]);
  // the number of a field that moved, taken by another
  t.same(await changes(routeGuide, edit(routeGuide, 'int32 latitude = 1;\n  int32 longitude = 2;', 'int32 latitude = 3;\n  int32 height = 1;\n  int32 longitude = 2;')), [
    ['field-number-changed', 'error', 'routeguide.Point.latitude'],
    ['field-number-reused', 'error', 'routeguide.Point.height'],
  ]);
});

t.test('enums', async (t) => {
  t.same(await changes(withEnum, routeGuide), [['enum-removed', 'error', 'routeguide.Terrain']]);
  t.same(await changes(routeGuide, withEnum), [['enum-added', 'info', 'routeguide.Terrain']]);
  t.same(await changes(withEnum, edit(withEnum, '  TERRAIN_WATER = 2;\n', '')), [['enum-value-removed', 'error', 'routeguide.Terrain.TERRAIN_WATER']]);
  t.same(await changes(withEnum, edit(withEnum, 'TERRAIN_WATER = 2;', 'TERRAIN_WATER = 2;\n  TERRAIN_ICE = 3;')), [['enum-value-added', 'info', 'routeguide.Terrain.TERRAIN_ICE']]);
  t.same(await changes(withEnum, edit(withEnum, 'TERRAIN_WATER = 2;', 'TERRAIN_WATER = 5;')), [['enum-value-number-changed', 'error', 'routeguide.Terrain.TERRAIN_WATER']]);
  t.same(await changes(withEnum, edit(withEnum, 'TERRAIN_WATER = 2;', 'TERRAIN_SEA = 2;')), [['enum-value-renamed', 'warning', 'routeguide.Terrain.TERRAIN_WATER']]);
});

t.test('folders of files importing each other: only the user files are compared', async (t) => {
  const dir = tmpdir();
  for (const side of ['old', 'new']) cpSync(path.join(corpus, 'proto/grpc'), path.join(dir, side, 'grpc'), { recursive: true });
  t.same(await compareProto(path.join(dir, 'old'), path.join(dir, 'new')), []);
  const messages = path.join(dir, 'new/grpc/testing/messages.proto');
  writeFileSync(messages, edit(readFileSync(messages, 'utf8'), 'int32 response_size = 2;', ''));
  const test = path.join(dir, 'new/grpc/testing/test.proto');
  writeFileSync(test, edit(readFileSync(test, 'utf8'), 'rpc EmptyCall(grpc.testing.Empty) returns (grpc.testing.Empty);', ''));
  const found = await compareProto('old', 'new', { cwd: dir });
  t.same(
    found.map(({ id, location }) => [id, location]),
    [
      ['method-removed', 'grpc.testing.TestService/EmptyCall'],
      ['field-removed', 'grpc.testing.SimpleRequest.response_size'],
    ],
  );
});

t.test('a malformed or missing input is a one-line MockError naming the file', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'old.proto'), routeGuide);
  writeFileSync(path.join(dir, 'new.proto'), edit(routeGuide, 'int32 latitude = 1;', 'int32 latitude = ;'));
  const error = await compareProto('old.proto', 'new.proto', { cwd: dir }).catch((e) => e);
  t.equal(error.name, 'MockError');
  t.equal(error.code, 'MOCK_ERR_GRPC_PROTO_INVALID');
  t.match(error.message, /new\.proto:\d+: .*the new \.proto files/);
  t.notMatch(error.message, /\n/);
  writeFileSync(path.join(dir, 'unknown.proto'), edit(routeGuide, 'Point lo = 1;', 'Place lo = 1;'));
  const unresolved = await compareProto('old.proto', 'unknown.proto', { cwd: dir }).catch((e) => e);
  t.equal(unresolved.code, 'MOCK_ERR_GRPC_PROTO_INVALID');
  t.match(unresolved.message, /unknown\.proto:.*Place/);
  const missing = await compareProto(path.join(dir, 'nowhere'), 'old.proto', { cwd: dir }).catch((e) => e);
  t.equal(missing.name, 'MockError');
  t.match(missing.message, /^the old \.proto files: .*nowhere not found/);
  t.notMatch(missing.message, /\n/);
});
