import { isInside, realPathOf } from '../../common/confinement.js';
import { MockError } from '../../common/errors.js';
import { displayPath, type ConfigSource, type EffectiveConfig, type ResolvedConfig } from '../config/index.js';

/**
 * A folder or file the run writes to, from the setting `key`. mock.yaml is what a cloned
 * repository or a save through the admin API can plant, so what it (or a default) names must lie
 * in the project by real path (a symbolic link counts where it points); a path elsewhere is
 * written only when the command line gives it, with `flag`.
 */
export function writablePath(resolved: ResolvedConfig, key: string, location: string, flag: string): string {
  const source = resolved.sources[key];
  if (source === 'flag') return location;
  const [real, project] = [realPathOf(location), realPathOf(resolved.projectDir)];
  if (isInside(real, project)) return location;
  const setting = source === 'file' && resolved.file ? `${key} in ${displayPath(resolved.file.file)}` : `${key} (${source ?? 'default'})`;
  throw new MockError(
    'MOCK_ERR_PATH_OUTSIDE_PROJECT',
    `${setting} leads outside the project ${project} (to ${real}); a path elsewhere is written only when the command line gives it: pass ${flag} ${displayPath(location)}`,
  );
}

/**
 * A file the run reads, from the setting `key` (a WebSocket replay script, a JWKS file). What
 * mock.yaml (or a default) names must lie in the project by real path, for the reason above, and
 * because what is read may show in answers and errors; the command line and the environment of
 * whoever starts the server may name any file. `elsewhere`: how to give a file outside anyway.
 */
export function readablePath(resolved: ResolvedConfig, key: string, location: string, source: ConfigSource | undefined, elsewhere = ''): string {
  if (source === 'flag' || source === 'env') return location;
  const [real, project] = [realPathOf(location), realPathOf(resolved.projectDir)];
  if (isInside(real, project)) return location;
  const setting = source === 'file' && resolved.file ? `${key} in ${displayPath(resolved.file.file)}` : `${key} (${source ?? 'default'})`;
  throw new MockError('MOCK_ERR_PATH_OUTSIDE_PROJECT', `${setting} leads outside the project ${project} (to ${real}); mock.yaml may name only files in the project: copy the file into it and name it relative to mock.yaml${elsewhere}`);
}

/** logging.file confined like every path the run writes to (a log file is appended to and rotated: renamed, and the oldest deleted). */
export function loggingOptions(resolved: ResolvedConfig): EffectiveConfig['logging'] {
  const { logging } = resolved.config;
  return logging.file === 'stdout' || logging.file === 'stderr' ? logging : { ...logging, file: writablePath(resolved, 'logging.file', logging.file, '--log-file') };
}
