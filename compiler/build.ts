import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions, BuildResult, CheckResult } from './options.js';
import { MockError } from '../common/errors.js';

/** `mock build`: writes the files that changed, atomically, and removes files an older build left behind. */
export async function build(options: BuildOptions): Promise<BuildResult & { warnings: string[] }> {
  if (options.specs.length === 0) throw new MockError('MOCK_ERR_SPEC_NOT_FOUND', 'no API description given (pass --spec <file|url> or list specs: in mock.yaml)');
  const compiled = await compileLazily(options);
  const { dir } = compiled;
  options.progress?.('writing files');
  mkdirSync(dir, { recursive: true });
  const previous = readManifestFiles(dir);
  const written: string[] = [];
  const unchanged: string[] = [];
  for (const [file, content] of [...compiled.files].sort(([a], [b]) => (a === 'manifest.json' ? 1 : b === 'manifest.json' ? -1 : a.localeCompare(b)))) {
    const target = path.join(dir, file);
    if (existsSync(target) && readFileSync(target, 'utf8') === content) {
      unchanged.push(file);
      continue;
    }
    const temp = `${target}.${process.pid}.tmp`;
    writeFileSync(temp, content);
    renameSync(temp, target);
    written.push(file);
  }
  for (const file of previous) if (!compiled.files.has(file)) rmSync(path.join(dir, file), { force: true });
  return { name: compiled.name, dir, written, unchanged, warnings: compiled.warnings };
}

/** `mock build --check`: a fresh build in memory compared byte for byte with the files on disk. */
export async function checkBuild(options: BuildOptions): Promise<CheckResult> {
  const compiled = await compileLazily(options);
  const { dir } = compiled;
  const stale = [...compiled.files.keys()].sort().filter((file) => {
    const target = path.join(dir, file);
    return !existsSync(target) || readFileSync(target, 'utf8') !== compiled.files.get(file);
  });
  return { name: compiled.name, dir, stale };
}

function readManifestFiles(dir: string): string[] {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { files?: Record<string, string> };
    return [...Object.keys(manifest.files ?? {}), 'manifest.json'];
  } catch {
    return [];
  }
}

/** The emitters pull in Ajv, ts-morph and json-schema-to-typescript: load them only when building. */
async function compileLazily(options: BuildOptions) {
  const { compile } = await import('./compile.js');
  return compile(options);
}
