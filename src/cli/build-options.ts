import { statSync } from 'node:fs';
import path from 'node:path';
import { isInside, realPathOf } from '../../common/confinement.js';
import { MockError } from '../../common/errors.js';
import type { BuildOptions } from '../../compiler/index.js';
import { displayPath, isUrl, type ResolvedConfig } from '../config/index.js';

/**
 * What `build`/`checkBuild` get. Spec sources are relative to the project directory, as messages
 * name them; the build itself records them relative to its own folder. `allowRefs`: --allow-ref.
 */
export function toBuildOptions(resolved: ResolvedConfig, allowRefs: string[]): BuildOptions {
  const { config, projectDir } = resolved;
  if (config.specs.length === 0) {
    throw new MockError('MOCK_ERR_NO_SPEC', 'no spec given: pass --spec <path|url> or list specs: in mock.yaml');
  }
  for (const spec of config.specs) {
    if (!isUrl(spec.path) && !statSync(spec.path, { throwIfNoEntry: false })?.isFile()) {
      throw new MockError('MOCK_ERR_SPEC_NOT_FOUND', `spec not found: ${displayPath(spec.path)} (checked ${specOrigin(resolved)})`);
    }
  }
  return {
    specs: config.specs.map((spec) => ({
      source: isUrl(spec.path) ? spec.path : path.relative(projectDir, spec.path),
      basePath: spec.base_path,
    })),
    routes: config.http.routes,
    routeRules: config.core.routes,
    outDir: confinedOutDir(resolved),
    name: config.build.name,
    cwd: projectDir,
    allowRefs,
  };
}

/**
 * build.out_dir, unless --out gives it, must lie in the project (by real path: a symbolic link
 * counts where it points). mock.yaml is what a cloned repository or a save through the admin API
 * can plant, and a build writes into its folder.
 */
function confinedOutDir({ config, sources, projectDir, file }: ResolvedConfig): string {
  const outDir = config.build.out_dir;
  if (sources['build.out_dir'] === 'flag') return outDir;
  const [real, project] = [realPathOf(outDir), realPathOf(projectDir)];
  if (isInside(real, project)) return outDir;
  const key = sources['build.out_dir'] === 'file' && file ? `build.out_dir in ${displayPath(file.file)}` : `build.out_dir (${sources['build.out_dir'] ?? 'default'})`;
  throw new MockError(
    'MOCK_ERR_OUT_DIR_OUTSIDE',
    `${key} leads outside the project ${project} (to ${real}); a folder elsewhere is built into only when given on the command line: pass --out ${displayPath(outDir)}`,
  );
}

/** Names where the spec list came from, for the not-found message. */
function specOrigin({ sources, file }: ResolvedConfig): string {
  return sources.specs === 'flag' || !file ? '--spec' : `specs: in ${displayPath(file.file)}`;
}
