import path from 'node:path';
import { realExisting } from './project-files.js';

/** What the admin API reads and writes: the files a user edits in the dashboard. */
const EXTENSIONS = new Set(['.yaml', '.yml', '.json', '.jsonl', '.proto', '.graphql', '.gql', '.csv', '.txt', '.md']);

export const EDITABLE_KINDS =
  'API descriptions, mock.yaml, fixtures and data files (.yaml, .yml, .json, .jsonl, .proto, .graphql, .gql, .csv, .txt, .md) outside generated output, node_modules and dot-folders';

/** Manifests whose contents other tools run (npm scripts, compilers' plugins, container definitions). */
const TOOLCHAIN = /^(?:package\.json|package-lock\.json|npm-shrinkwrap\.json|[tj]sconfig(?:\.[\w-]+)?\.json|deno\.jsonc?|composer\.json|(?:docker-)?compose(?:\.[\w-]+)?\.ya?ml|pnpm-(?:lock|workspace)\.yaml|lerna\.json|nx\.json|turbo\.json|angular\.json|project\.json)$/i;

export interface EditableFiles {
  /** Project directory (real path). */
  root: string;
  /** The configuration file in use, editable even when dot-prefixed (`.mock.yaml`). */
  configFile: string | null;
  /** Where `mock build` writes: the server imports what is there as code. */
  generatedDir: string | null;
}

/**
 * Why the admin API must not read or write `file` (an absolute path inside the root: as given, and
 * again as the real path a symlink leads to), or undefined when it may.
 */
export function refusedKind(files: EditableFiles, file: string): string | undefined {
  if (files.configFile !== null && file === files.configFile) return undefined;
  const relative = path.relative(files.root, file);
  const parts = relative.split(path.sep);
  if (files.generatedDir !== null && isInside(files.generatedDir, file)) return 'it is generated output (mock build writes it and the server loads it as code)';
  if (parts.includes('node_modules')) return 'it lies in node_modules';
  if (parts.some((part) => part.startsWith('.'))) return 'it is a dot-file or lies in a dot-folder';
  const name = parts[parts.length - 1];
  if (TOOLCHAIN.test(name)) return 'it is a toolchain manifest that other tools run';
  const extension = path.extname(name).toLowerCase();
  if (!EXTENSIONS.has(extension)) return extension === '' ? 'it has no file extension' : `${extension} files are not edited through the admin API`;
  return undefined;
}

function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The real paths of the project's editable files' landmarks (the admin API compares real paths). */
export function editableFiles(projectDir: string, configFile: string | null, generatedDir: string | null): EditableFiles {
  const real = (file: string | null): string | null => (file === null ? null : realExisting(path.resolve(file)));
  return { root: realExisting(path.resolve(projectDir)), configFile: real(configFile), generatedDir: real(generatedDir) };
}
