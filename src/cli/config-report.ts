import { statSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../common/errors.js';
import {
  CONFIG_FILE_NAMES,
  deprecatedInUse,
  displayPath,
  findConfigFile,
  isUrl,
  loadConfig,
  readConfigFile,
  keyLocator,
  type ResolvedConfig,
} from '../config/index.js';
import { isTree } from '../config/tree.js';
import { protoDirInUse } from './build-options.js';
import { websocketWanted } from './servers-wanted.js';
import { hostingOptions, hostingWanted } from './hosting-options.js';

/** What `mock config validate` found in a configuration file that loads without errors. */
export interface ConfigReport {
  /** The file as named in messages. */
  file: string;
  specs: Array<{ source: string; operations: number }>;
  /** HTTP endpoints: operations of the descriptions plus custom routes (`http.routes`). */
  endpoints: { total: number; operations: number; custom_routes: number };
  /**
   * Chains: request sequences whose answer depends on an earlier request or on the request's
   * content: the transitions of the stateful state machines plus the custom routes with `match`
   * conditions (query, headers or body).
   */
  chains: { total: number; transitions: number; state_machines: number; conditional_routes: number };
  /** The GraphQL schema (graphql.schema), checked as mock build checks it; absent without one. */
  graphql?: { files: string[]; types: number; queries: number; mutations: number; subscriptions: number };
  /** The .proto files (grpc.proto_dir), compiled as mock build compiles them; absent without gRPC. */
  grpc?: { dir: string; files: number; services: number; methods: number; leftOut: number; problems: string[] };
  warnings: string[];
  /** Deprecated options the file uses, with their replacement and line. */
  deprecated: Array<{ key: string; replacement: string; line?: number }>;
}

/** Sections whose absence is worth a warning, with what happens without them. */
const EXPECTED_SECTIONS: ReadonlyArray<[key: string, consequence: string]> = [
  ['specs', 'mock serve needs --spec <path|url>'],
  ['server', 'the HTTP mock listens on 0.0.0.0:3000 (the default)'],
  ['validation', 'requests are validated in enforce mode, rejected with 400 (the default)'],
];

/**
 * Checks one config file the way `mock serve` would read it, without the MOCK_* environment:
 * the file exists, its YAML parses, it matches the schema, its descriptions load and lower
 * together with the custom routes, its GraphQL schema builds. Any of these failing throws the usual one-line error.
 */
export async function checkConfigFile(options: { cwd?: string; configPath?: string; env?: Readonly<Record<string, string | undefined>>; allowRefs?: string[] }): Promise<ConfigReport> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const location = findConfigFile(cwd, env, options.configPath);
  if (!location) {
    throw new MockError(
      'MOCK_ERR_CONFIG_NOT_FOUND',
      `no config file found: looked for ${CONFIG_FILE_NAMES.join(', ')} in ${cwd} and its parents; pass -c <path> or create one with mock init`,
    );
  }
  const file = displayPath(location.file, cwd);
  const resolved = loadConfig({ cwd, env: {}, configPath: location.file });
  const { config, sources } = resolved;
  const raw = readConfigFile(location.file, file);
  const written = isTree(raw) ? raw : {};

  for (const [i, spec] of config.specs.entries()) {
    if (!isUrl(spec.path) && !statSync(spec.path, { throwIfNoEntry: false })?.isFile()) {
      throw new MockError('MOCK_ERR_SPEC_NOT_FOUND', `spec not found: ${displayPath(spec.path, cwd)} (checked specs[${i}] in ${file})`);
    }
  }
  // Loaded on use: the compiler's dependencies are not needed for --help.
  const { readDescription, toOpenApi3, buildIr, defaultName, checkGraphqlSchema, checkProtos } = await import('../../compiler/index.js');
  const inputs = await Promise.all(
    config.specs.map(async (spec) => {
      const read = await readDescription(spec.path, resolved.projectDir, options.allowRefs);
      const source = isUrl(spec.path) ? spec.path : displayPath(spec.path, cwd);
      return { source, basePath: spec.base_path, description: await toOpenApi3(source, read.document) };
    }),
  );
  const graphql = await graphqlReport(resolved, file, options.allowRefs, checkGraphqlSchema);
  const protoDir = protoDirInUse(resolved);
  const grpc =
    protoDir === undefined
      ? undefined
      : await checkProtos({ protoDir: path.relative(resolved.projectDir, protoDir) || '.', cwd: resolved.projectDir, outDir: config.build.out_dir, allowRefs: options.allowRefs, excludedServices: config.grpc.excluded_services });
  const name = config.build.name ?? defaultName(config.specs[0]?.path ?? 'api');
  const ir = buildIr(name, inputs, config.http.routes, config.core.routes);

  const machines = config.core.stateful?.state_machines ?? [];
  const transitions = machines.reduce((sum, machine) => sum + machine.transitions.length, 0);
  const conditional = ir.routes.filter(({ match }) => match.query || match.headers || match.body !== undefined).length;

  // a GraphQL schema alone is a project too: no HTTP mock runs then, whatever server and validation say
  // a GraphQL schema, .proto files or a WebSocket configuration alone is a project without an HTTP mock; hosted mode's tenants are its API
  const expected = (graphql !== undefined || grpc !== undefined || websocketWanted(resolved) || hostingWanted(resolved)) && config.specs.length === 0 ? [] : EXPECTED_SECTIONS;
  const warnings = expected.filter(([key]) => !(key in written)).map(([key, consequence]) => `no ${key}: section; ${consequence}`);
  if (config.reality_continuum?.enabled && !config.proxy.upstream_url) {
    warnings.push('reality_continuum is enabled without an upstream: set proxy.upstream_url (or MOCK_PROXY_UPSTREAM)');
  }
  if (sources['admin.embedded'] === 'file' && config.admin.embedded && config.admin.standalone) {
    warnings.push('admin.embedded has no effect while admin.standalone is true (its default); set standalone: false to embed');
  }

  if (config.state.store === 'redis' && config.admin.auth.enabled && config.admin.auth.jwt_secret === undefined) {
    warnings.push('admin auth with state.store redis needs JWT_SECRET when serving (the same random value on every instance); mock serve refuses to start without it');
  }

  try {
    hostingOptions(resolved, () => undefined);
  } catch (e) {
    warnings.push(`${(e as Error).message} (mock serve refuses to start so)`);
  }

  const line = keyLocator(location.file);
  return {
    file,
    specs: inputs.map((input, i) => ({ source: input.source, operations: ir.operations.filter((op) => op.spec === i).length })),
    endpoints: { total: ir.operations.length + ir.routes.length, operations: ir.operations.length, custom_routes: ir.routes.length },
    chains: { total: transitions + conditional, transitions, state_machines: machines.length, conditional_routes: conditional },
    ...(graphql === undefined ? {} : { graphql }),
    ...(grpc === undefined ? {} : { grpc: { ...grpc, dir: displayPath(protoDir as string, cwd) } }),
    warnings: [...warnings, ...(grpc?.problems ?? [])],
    deprecated: deprecatedInUse(sources)
      .map(({ key, replacement }) => ({ key, replacement, line: line(key.split('.')) }))
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0)),
  };
}

/** The GraphQL schema checked as mock build checks it, and graphql.overrides against it; undefined without one. */
async function graphqlReport(
  resolved: ResolvedConfig,
  file: string,
  allowRefs: string[] | undefined,
  check: typeof import('../../compiler/index.js').checkGraphqlSchema,
): Promise<ConfigReport['graphql']> {
  const { config, projectDir } = resolved;
  if (config.graphql.schema.length === 0) return undefined;
  const graphqlSchemas = config.graphql.schema.map((schema) => path.relative(projectDir, schema) || '.');
  const { summary, overrideProblems } = await check({ graphqlSchemas, cwd: projectDir, outDir: config.build.out_dir, allowRefs, overrides: config.graphql.overrides });
  if (overrideProblems.length > 0) throw new MockError('MOCK_ERR_CONFIG_INVALID', overrideProblems.map((line) => `${file}: ${line}`).join('\n'));
  return summary;
}

const plural = (n: number, word: string, words = `${word}s`): string => `${n} ${n === 1 ? word : words}`;

/** The human-readable summary. */
export function formatReport(report: ConfigReport, listDeprecated: boolean): string {
  const { endpoints, chains } = report;
  const lines = [`${report.file}: valid`];
  const specs = report.specs.map((spec) => `${spec.source}: ${plural(spec.operations, 'operation')}`).join('; ');
  lines.push(`  specs: ${report.specs.length}${specs ? ` (${specs})` : ''}`);
  lines.push(
    `  HTTP endpoints: ${endpoints.total} (${endpoints.operations} from descriptions, ${plural(endpoints.custom_routes, 'custom route')})`,
  );
  lines.push(
    `  chains: ${chains.total} (${plural(chains.transitions, 'state transition')} in ${plural(chains.state_machines, 'state machine')}, ${plural(chains.conditional_routes, 'conditional custom route')})`,
  );
  const { graphql } = report;
  if (graphql !== undefined) {
    lines.push(
      `  GraphQL: ${graphql.files.join(', ')} (${plural(graphql.types, 'type')}; ${plural(graphql.queries, 'query', 'queries')}, ${plural(graphql.mutations, 'mutation')}, ${plural(graphql.subscriptions, 'subscription')})`,
    );
  }
  const { grpc } = report;
  if (grpc !== undefined) {
    lines.push(`  gRPC: ${grpc.dir} (${plural(grpc.files, '.proto file')}; ${plural(grpc.services, 'service')}, ${plural(grpc.methods, 'method')}${grpc.leftOut === 0 ? '' : `; ${plural(grpc.leftOut, 'file')} left out`})`);
  }
  for (const warning of report.warnings) lines.push(`  warning: ${warning}`);
  if (listDeprecated) {
    if (report.deprecated.length === 0) lines.push('  deprecated: none in use');
    for (const { key, replacement, line } of report.deprecated) {
      lines.push(`  deprecated: ${key}${line === undefined ? '' : ` (line ${line})`}: use ${replacement}`);
    }
  } else if (report.deprecated.length > 0) {
    lines.push(`  deprecated: ${plural(report.deprecated.length, 'option')} in use; list with --check-deprecated`);
  }
  return `${lines.join('\n')}\n`;
}
