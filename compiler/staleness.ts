import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions } from './options.js';
import { buildPlace, provenFresh } from './fingerprint.js';

/**
 * Cheap staleness test for `mock serve`. First from bytes alone: the manifest's fingerprint (the
 * options, and the hash of every file the descriptions were read from) proves a build fresh
 * without parsing anything. Otherwise the inputs are loaded, bundled and hashed (the parser and
 * bundler load only then); nothing is emitted either way.
 */
export async function isBuildStale(options: BuildOptions): Promise<{ dir: string; stale: boolean }> {
  const { dir } = buildPlace(options);
  const manifest = readManifest(dir);
  if (manifest === undefined) return { dir, stale: true };
  const complete = Object.keys(manifest.files ?? {}).every((f) => existsSync(path.join(dir, f)));
  if (!complete) return { dir, stale: true };
  if (provenFresh(options, manifest)) return { dir, stale: false };
  const { loadInputs } = await import('./inputs.js');
  const { inputsHash } = await loadInputs(options);
  return { dir, stale: manifest.inputs_sha256 !== inputsHash };
}

interface Manifest {
  inputs_sha256?: string;
  options_sha256?: string;
  input_files?: Record<string, string>;
  files?: Record<string, string>;
}

function readManifest(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}
