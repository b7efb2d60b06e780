import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions } from './options.js';
import { loadInputs } from './inputs.js';

/** Cheap staleness test for `mock serve`: only the inputs are loaded and hashed, nothing is emitted. */
export async function isBuildStale(options: BuildOptions): Promise<{ dir: string; stale: boolean }> {
  const { dir, inputsHash } = await loadInputs(options);
  const manifestPath = path.join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) return { dir, stale: true };
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { inputs_sha256?: string; files?: Record<string, string> };
    const complete = Object.keys(manifest.files ?? {}).every((f) => existsSync(path.join(dir, f)));
    return { dir, stale: manifest.inputs_sha256 !== inputsHash || !complete };
  } catch {
    return { dir, stale: true };
  }
}
