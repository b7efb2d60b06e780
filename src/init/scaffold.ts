import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { blueprintsRoot, type BlueprintName } from './blueprints.js';
import { fillProjectName, selectExampleBlocks, stripResponseExamples } from './render.js';

export interface ScaffoldOptions {
  blueprint: BlueprintName;
  /** Written wherever a blueprint file says `__PROJECT_NAME__`. */
  projectName: string;
  /**
   * false (`--no-examples`) leaves out the example content: the example fixture files under
   * `fixtures/` (an empty `fixtures/http/.gitkeep` keeps the folder), the `example`/`examples` of the
   * description's responses (answers are then generated from the schemas), and the README lines
   * about them. Configuration (custom routes, the state machine) stays.
   */
  examples: boolean;
}

/** A file of the new project: a path relative to the project folder (with `/`) and its content. */
export interface ProjectFile {
  path: string;
  content: string;
}

/** The description every blueprint serves; --no-examples strips its response examples. */
const DESCRIPTION_FILE = 'api.yaml';
const FIXTURES_DIR = 'fixtures';

/** The files a blueprint gives, rendered for one project, in path order. */
export function planProject(options: ScaffoldOptions, root: string = blueprintsRoot()): ProjectFile[] {
  const dir = path.join(root, options.blueprint);
  const files: ProjectFile[] = [];
  for (const file of listFiles(dir)) {
    const isFixture = file.startsWith(`${FIXTURES_DIR}/`);
    if (isFixture && !options.examples) continue;
    let content = fillProjectName(readFileSync(path.join(dir, file), 'utf8'), file, options.projectName);
    if (file.endsWith('.md')) content = selectExampleBlocks(content, options.examples);
    if (file === DESCRIPTION_FILE && !options.examples) content = stripResponseExamples(content);
    files.push({ path: file, content });
  }
  if (!files.some((f) => f.path.startsWith(`${FIXTURES_DIR}/`))) files.push({ path: `${FIXTURES_DIR}/http/.gitkeep`, content: '' });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface WrittenFile {
  /** Absolute path. */
  file: string;
  /** It existed before (only possible with --force). */
  overwritten: boolean;
}

/** Entries that do not make a folder "non-empty": a fresh `git init` may precede `mock init .`. */
const IGNORED_ENTRIES = new Set(['.git']);

/**
 * Writes the files into `target`, creating it. A folder holding anything (but `.git`) is refused
 * unless `force`; with `force` only the project's own files are overwritten, nothing is deleted.
 */
export function writeProject(target: string, files: ProjectFile[], { force }: { force: boolean }, shownAs: string = target): WrittenFile[] {
  if (existsSync(target)) {
    if (!statSync(target).isDirectory()) throw new Error(`${shownAs} exists and is not a directory; choose another name`);
    const entries = readdirSync(target).filter((entry) => !IGNORED_ENTRIES.has(entry));
    if (entries.length > 0 && !force) {
      throw new Error(`${shownAs} is not empty; use --force to write the project's files into it (other files are kept)`);
    }
  }
  for (const { path: relative } of files) {
    const file = path.join(target, relative);
    if (existsSync(file) && statSync(file).isDirectory()) throw new Error(`${path.join(shownAs, relative)} is a directory; move it away or choose another target`);
  }
  const written: WrittenFile[] = [];
  for (const { path: relative, content } of files) {
    const file = path.join(target, relative);
    const overwritten = existsSync(file);
    mkdirSync(path.dirname(file), { recursive: true });
    // atomic: a reader (or an interrupted init) never sees half a file
    const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
    writeFileSync(temporary, content);
    renameSync(temporary, file);
    written.push({ file, overwritten });
  }
  return written;
}

/** Every file below `dir`, relative, with `/` separators, sorted. */
function listFiles(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listFiles(dir, relative));
    else if (entry.isFile()) out.push(relative);
  }
  return out;
}
