import path from 'node:path';
import { readDescription, serverBasePath, toOpenApi3 } from '../../compiler/index.js';
import { ANGULAR_REQUESTS, ANGULAR_RESOURCES, packagesFor, proxySnippet, type Framework } from './frameworks.js';
import { generateClient } from './generate.js';
import { writeFiles } from './write-files.js';

export { FRAMEWORKS, isFramework, type Framework } from './frameworks.js';

export interface DevSetupOptions {
  framework: Framework;
  /** --spec as given (file or URL). */
  spec: string;
  /** The user's project folder (absolute). */
  dir: string;
  /** Where the client goes, relative to `dir` or absolute. */
  output: string;
  /** Where the mock answers: scheme, host and port (its base path comes from the description). */
  origin: string;
  force: boolean;
  allowRefs: readonly string[];
  shown: (file: string) => string;
}

export interface DevSetupResult {
  folder: string;
  written: string[];
  unchanged: string[];
  /** The base URL the client is configured with: the origin and the description's base path. */
  baseUrl: string;
  proxy: string;
  packages: string[];
  /** What the generator warned of, each once. */
  warnings: string[];
  /** What to import: the SDK's functions, or Angular's service. */
  usage: string;
}

/** Generates the framework's typed client of a description and writes it into the project. */
export async function devSetup(options: DevSetupOptions): Promise<DevSetupResult> {
  const raw = await readDescription(options.spec, process.cwd(), options.allowRefs);
  const { document } = await toOpenApi3(options.spec, raw.document);
  const basePath = serverBasePath(document);
  const baseUrl = `${options.origin.replace(/\/+$/, '')}${basePath}`;
  const { files, warnings } = await generateClient(options.framework, document, baseUrl, options.spec);
  const folder = path.resolve(options.dir, options.output);
  const outcome = writeFiles(folder, files, options.force, options.shown);
  const usage =
    options.framework === 'angular'
      ? `inject(${ANGULAR_RESOURCES}) or inject(${ANGULAR_REQUESTS}) from ${options.shown(path.join(folder, '@angular', 'common.gen.ts'))}, or the functions of ${options.shown(path.join(folder, 'sdk.gen.ts'))} (with provideHttpClient())`
      : `the functions of ${options.shown(path.join(folder, 'sdk.gen.ts'))}, or the query options of ${options.shown(path.join(folder, '@tanstack', `${options.framework}-query.gen.ts`))}`;
  return {
    folder,
    ...outcome,
    warnings,
    baseUrl,
    proxy: proxySnippet(options.framework, proxyPrefixes(document, basePath), options.origin.replace(/\/+$/, '')),
    packages: packagesFor(options.framework),
    usage,
  };
}

/** The paths a dev server forwards to the mock: the base path, else each first segment of the description's paths. */
function proxyPrefixes(document: Record<string, unknown>, basePath: string): string[] {
  if (basePath !== '') return [basePath];
  const paths = Object.keys((document.paths ?? {}) as Record<string, unknown>);
  const firsts = new Set(paths.map((p) => `/${p.split('/').filter((part) => part !== '')[0] ?? ''}`).filter((p) => p !== '/' && !p.includes('{')));
  return firsts.size > 0 ? [...firsts].sort() : ['/'];
}
