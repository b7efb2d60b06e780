import path from 'node:path';
import type { ConfigSource } from './layer.js';
import type { GraphqlConfig, MockConfig, SpecEntry } from './types.generated.js';

/** The effective configuration: defaults filled in, `specs` as entries, `graphql.schema` as a list, file paths absolute. */
export type EffectiveConfig = Omit<MockConfig, 'specs' | 'graphql'> & { specs: SpecEntry[]; graphql: Omit<GraphqlConfig, 'schema'> & { schema: string[] } };

export const isUrl = (location: string): boolean => /^https?:\/\//i.test(location);

/** Streams `logging.file` may name instead of a file. */
const STREAMS = new Set(['stdout', 'stderr']);

/**
 * A relative path resolves against the directory of whoever wrote it: the project directory (the
 * config file's directory, else cwd) for file values and defaults, cwd for env and flag values.
 * Every key holding a file or folder is listed here.
 */
export function resolvePaths(
  config: MockConfig,
  sources: Readonly<Record<string, ConfigSource>>,
  cwd: string,
  projectDir: string,
): EffectiveConfig {
  const resolve = (key: string, location: string): string => {
    if (isUrl(location)) return location;
    const source = sources[key];
    return path.resolve(source === 'env' || source === 'flag' ? cwd : projectDir, location);
  };
  const optional = (key: string, location: string | undefined): { [key: string]: string } =>
    location === undefined ? {} : { [key.slice(key.lastIndexOf('.') + 1)]: resolve(key, location) };
  const { logging, core, grpc, websocket, graphql, recorder, http, plugins, server, admin, metrics, tenancy } = config;
  // each block's files resolve by where that block's keys were set
  const tls = (at: string, block: { cert?: string; key?: string; ca?: string } | false | undefined): object => {
    if (block === undefined || block === false) return block === false ? { tls: false } : {};
    return { tls: { ...block, ...optional(`${at}.cert`, block.cert), ...optional(`${at}.key`, block.key), ...optional(`${at}.ca`, block.ca) } };
  };
  return {
    ...config,
    server: { ...server, ...tls('server.tls', server.tls) },
    admin: { ...admin, ...tls('admin.tls', admin.tls) },
    metrics: { ...metrics, ...tls('metrics.tls', metrics.tls) },
    proxy: { ...config.proxy, ...optional('proxy.ca', config.proxy.ca) },
    specs: config.specs.map((spec) => {
      const entry = typeof spec === 'string' ? { path: spec } : spec;
      return { ...entry, path: resolve('specs', entry.path) };
    }),
    http: http.overrides ? { ...http, overrides: { ...http.overrides, ...optional('http.overrides.glob', http.overrides.glob) } } : http,
    logging: STREAMS.has(logging.file) ? logging : { ...logging, file: resolve('logging.file', logging.file) },
    build: { ...config.build, out_dir: resolve('build.out_dir', config.build.out_dir) },
    core: { ...core, fixtures: { ...core.fixtures, dir: resolve('core.fixtures.dir', core.fixtures.dir) } },
    grpc: { ...grpc, proto_dir: resolve('grpc.proto_dir', grpc.proto_dir), ...tls('grpc.tls', grpc.tls) },
    websocket: {
      ...websocket,
      ...tls('websocket.tls', websocket.tls),
      ...optional('websocket.replay_file', websocket.replay_file),
      routes: (websocket.routes ?? []).map((route) => (route.script === undefined ? route : { ...route, script: path.resolve(projectDir, route.script) })),
    },
    // files or globs: a glob resolves as a path does, its pattern part kept
    graphql: { ...graphql, ...tls('graphql.tls', graphql.tls), schema: [graphql.schema].flat().map((location) => resolve('graphql.schema', location)) },
    recorder: { ...recorder, ...optional('recorder.db_path', recorder.db_path) },
    ...(tenancy === undefined
      ? {}
      : {
          tenancy: {
            ...tenancy,
            ...optional('tenancy.dir', tenancy.dir),
            ...(tenancy.tenants === undefined
              ? {}
              : { tenants: Object.fromEntries(Object.entries(tenancy.tenants).map(([id, tenant]) => [id, { ...tenant, spec: path.resolve(projectDir, tenant.spec) }])) }),
          },
        }),
    plugins: {
      ...plugins,
      dir: resolve('plugins.dir', plugins.dir),
      sandbox: Object.fromEntries(
        Object.entries(plugins.sandbox).map(([name, own]) => [
          name,
          own.allowed_paths === undefined ? own : { ...own, allowed_paths: own.allowed_paths.map((p) => resolve(`plugins.sandbox.${name}.allowed_paths`, p)) },
        ]),
      ),
    },
  };
}
