import type { BuildOptions } from './options.js';
import { loadInputs, sha256 } from './inputs.js';
import { recordedSource } from './fingerprint.js';
import { GRAPHQL_SCHEMA_FILE } from './graphql/schema-files.js';
import { GRPC_BUILD_FILE } from './grpc/proto-files.js';
import { buildIr, type Ir, type IrInput } from './ir/index.js';
import { PACKAGE_JSON, emitIndex, emitResponders, emitRoutes, emitTypes, emitValidators, registerSchemas, transpile } from './emit/index.js';
import { TOOL_VERSION } from '../common/version.js';

export interface CompiledBuild {
  name: string;
  /** Absolute folder the build belongs in: <outDir>/<name>. */
  dir: string;
  /** The descriptions lowered; absent in a build of a GraphQL schema alone. */
  ir?: Ir;
  /** Relative file name -> content, manifest.json included. */
  files: Map<string, string>;
  /** Hash of every input; equal hashes mean an up-to-date build. */
  inputsHash: string;
  warnings: string[];
}

/**
 * Loads the inputs and computes every output file in memory; nothing is written. The descriptions
 * give the HTTP mock's files; the GraphQL schema, checked, gives schema.graphql; the .proto files
 * give grpc.json and their typed message code (grpc/**.ts, ts-proto). A build may hold any of them.
 */
export async function compile(options: BuildOptions): Promise<CompiledBuild> {
  const progress = options.progress ?? (() => undefined);
  progress('reading descriptions');
  const { name, dir, inputs, inputsHash, raw, sources, fingerprint, graphql, grpc } = await loadInputs(options);
  const http = options.specs.length === 0 ? undefined : await compileHttp(name, inputs, sources, options);
  const files = new Map<string, string>(http?.files ?? []);
  if (graphql.length > 0) {
    progress('checking the GraphQL schema');
    // loaded only for a build that has a schema: graphql is a large library
    const { concatenate, loadGraphqlSchema } = await import('./graphql/load-schema.js');
    const loaded = loadGraphqlSchema(options);
    files.set(GRAPHQL_SCHEMA_FILE, concatenate(loaded.sources, (source) => recordedSource(source.file, source.file, dir)).text);
  }
  const grpcWarnings: string[] = [];
  let services = 0;
  if (options.protoDir !== undefined) {
    progress('compiling the .proto files');
    // loaded only for a build that has .proto files
    const { loadProtos, refuseWhenNothingServes } = await import('./grpc/load-protos.js');
    const loaded = loadProtos(options);
    refuseWhenNothingServes(loaded);
    files.set(GRPC_BUILD_FILE, `${JSON.stringify(loaded.output)}\n`);
    progress('generating typed message code (ts-proto)');
    // ts-proto and its code generator load only here
    grpcWarnings.push(...loaded.warnings);
    const { typedMessageCode } = await import('./grpc/typed-code.js');
    try {
      for (const [file, content] of await typedMessageCode(loaded.output, loaded.built)) files.set(file, content);
    } catch (e) {
      // the mock serves without it: a proto ts-proto cannot handle costs the typed code only
      grpcWarnings.push(`the typed message code (grpc/) is not written: ts-proto failed: ${(e as Error).message.split('\n')[0]}`);
    }
    services = loaded.output.services.length;
  }
  const ir = http?.ir;
  const manifest = {
    tool: 'mock',
    version: TOOL_VERSION,
    name,
    inputs_sha256: inputsHash,
    ...fingerprint,
    specs: raw.map((r, i) => ({ source: sources[i], sha256: sha256(r.text) })),
    ...(graphql.length > 0 ? { graphql: { schema: GRAPHQL_SCHEMA_FILE, sources: graphql } } : {}),
    ...(options.protoDir === undefined ? {} : { grpc: { output: GRPC_BUILD_FILE, services, sources: grpc } }),
    operations: ir?.operations.length ?? 0,
    custom_routes: ir?.routes.length ?? 0,
    files: Object.fromEntries([...files.keys()].sort().map((f) => [f, sha256(files.get(f) as string)])),
  };
  files.set('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  const warnings = [...(http?.warnings ?? []), ...grpcWarnings];
  if (http === undefined && options.routes.length > 0) warnings.push('http.routes are not served: the HTTP mock runs only with an API description (--spec or specs: in mock.yaml)');
  return { name, dir, ir, files, inputsHash, warnings };
}

/** The HTTP mock's files from the descriptions: router, validators, responders, types. */
async function compileHttp(name: string, inputs: IrInput[], sources: string[], options: BuildOptions): Promise<{ ir: Ir; files: Array<[string, string]>; warnings: string[] }> {
  const progress = options.progress ?? (() => undefined);
  progress('reading operations');
  const ir = buildIr(name, inputs, options.routes, options.routeRules);
  const total = ir.operations.length;
  progress('compiling validators', 0, total);
  const schemas = registerSchemas(ir);
  const validators = emitValidators(schemas);
  const responders = emitResponders(ir, schemas, (done) => progress('generating responders', done, total));
  progress('generating routes', total, total);
  const routes = emitRoutes(ir, schemas);
  const index = emitIndex(ir, sources);
  progress('generating types', total, total);
  const files: Array<[string, string]> = [
    ['index.ts', index],
    ['index.js', transpile(index)],
    ['package.json', PACKAGE_JSON],
    ['routes.ts', routes],
    ['routes.js', transpile(routes)],
    ['validators.d.ts', validators.dts],
    ['validators.js', validators.js],
    ['responders.ts', responders.ts],
    ['responders.js', responders.js],
    ['types.ts', await emitTypes(ir)],
  ];
  const warnings = [
    ...(ir.operations.length === 0
      ? [`the descriptions define no operations (webhooks or components only): nothing will be served but custom routes${ir.webhooks.length === 0 ? '' : '; their webhooks can be sent (mock webhooks send, docs/callbacks-webhooks.md)'}`]
      : []),
    ...ir.warnings,
    ...responders.warnings.noResponses.map((key) => `${key} documents no responses; it answers 204 No Content`),
    ...responders.warnings.switchesProtocols.map((key) => `${key} succeeds only by switching protocols (1xx), which the mock does not do; it answers 204 No Content`),
    ...responders.warnings.invalidExamples.map((w) => `${w} does not match its schema; served only when asked for by name`),
    ...responders.warnings.unsatisfiable,
  ];
  return { ir, files, warnings };
}
