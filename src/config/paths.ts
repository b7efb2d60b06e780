import path from 'node:path';
import type { ConfigSource } from './layer.js';
import type { MockConfig, SpecEntry } from './types.generated.js';

/** The effective configuration: defaults filled in, `specs` as entries, file paths absolute. */
export type EffectiveConfig = Omit<MockConfig, 'specs'> & { specs: SpecEntry[] };

export const isUrl = (location: string): boolean => /^https?:\/\//i.test(location);

/**
 * A relative path resolves against the directory of whoever wrote it: the project directory (the
 * config file's directory, else cwd) for file values and defaults, cwd for env and flag values.
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
  return {
    ...config,
    specs: config.specs.map((spec) => {
      const entry = typeof spec === 'string' ? { path: spec } : spec;
      return { ...entry, path: resolve('specs', entry.path) };
    }),
    build: { ...config.build, out_dir: resolve('build.out_dir', config.build.out_dir) },
  };
}
