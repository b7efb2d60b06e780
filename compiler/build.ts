import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions, BuildResult, CheckResult } from './options.js';
import { MockError } from '../common/errors.js';

/** `mock build`: writes the files that changed, atomically, and removes files an older build left behind. */
export async function build(options: BuildOptions): Promise<BuildResult & { warnings: string[] }> {
  if (options.specs.length === 0 && (options.graphqlSchemas ?? []).length === 0 && options.protoDir === undefined) {
    throw new MockError(
      'MOCK_ERR_NO_SPEC',
      'nothing to build: pass --spec <file|url> (an API description), --graphql-schema <path> (a GraphQL schema) or --proto-dir <dir> (.proto files), or list specs: or graphql.schema in mock.yaml',
    );
  }
  const compiled = await compileLazily(options);
  const { dir } = compiled;
  options.progress?.('writing files');
  const previous = claimFolder(dir);
  const written: string[] = [];
  const unchanged: string[] = [];
  for (const [file, content] of [...compiled.files].sort(([a], [b]) => (a === 'manifest.json' ? 1 : b === 'manifest.json' ? -1 : a.localeCompare(b)))) {
    const target = path.join(dir, file);
    if (existsSync(target) && readFileSync(target, 'utf8') === content) {
      unchanged.push(file);
      continue;
    }
    const temp = `${target}.${process.pid}.tmp`;
    // never write through a file (or a link) left or planted under the temporary name
    rmSync(temp, { force: true });
    writeFileSync(temp, content, { flag: 'wx' });
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

/**
 * Makes sure `dir` may be written, and returns the files of the build it holds. A build replaces
 * files only in a folder that is absent, empty, or holds a previous build (its manifest.json):
 * anything else may be someone's project, which a build name or out_dir in a planted mock.yaml
 * could otherwise overwrite. Only plain file names of that manifest are ever removed.
 */
function claimFolder(dir: string): string[] {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (stat === undefined) {
    mkdirSync(dir, { recursive: true });
    return [];
  }
  if (!stat.isDirectory()) throw foreign(dir, 'is a file, not a folder');
  if (readdirSync(dir).length === 0) return [];
  const files = previousBuildFiles(dir);
  if (files === undefined) throw foreign(dir, 'holds files but no manifest.json of a mock build');
  return files;
}

function previousBuildFiles(dir: string): string[] | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { tool?: unknown; files?: Record<string, string> };
    if (manifest.tool !== 'mock') return undefined;
    return [...Object.keys(manifest.files ?? {}).filter((file) => file === path.basename(file) && file !== '..' && file !== '.'), 'manifest.json'];
  } catch {
    return undefined;
  }
}

const foreign = (dir: string, what: string): MockError =>
  new MockError('MOCK_ERR_BUILD_FOLDER_FOREIGN', `${dir} ${what}: a build replaces only an earlier build; pick another --out or --name, or empty the folder`);

/** The emitters pull in Ajv, ts-morph and json-schema-to-typescript: load them only when building. */
async function compileLazily(options: BuildOptions) {
  const { compile } = await import('./compile.js');
  return compile(options);
}
