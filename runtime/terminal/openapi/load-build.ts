import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildModule } from '../../../common/contract/index.js';
import { MockError } from '../../../common/errors.js';
import { SCHEMA_PATTERN_MODULE, schemaPattern } from '../../../common/patterns/index.js';
import { verifyBuild } from './verify-build.js';

const installed = createRequire(import.meta.url);

/**
 * What generated validators `require`: Ajv's runtime helpers, resolved from this installation,
 * and the linear-time engine for the descriptions' `pattern`s.
 */
export const runtimeRequire = (id: string): unknown => (id === SCHEMA_PATTERN_MODULE ? schemaPattern : installed(id));

let generation = 0;
/** The builds this process imported: importing one again must bypass the module cache. */
const imported = new Set<string>();

/**
 * Imports a build once its files match their manifest (see verifyBuild). A build folder this
 * process imported before (a restart after a rebuild, mock sync's next generation) bypasses the
 * module cache, which would otherwise hand back the build loaded first: a fresh load imports each
 * of its modules under a new URL (the old generation stays in memory: a reload is rare).
 */
export async function loadBuild(buildDir: string): Promise<BuildModule> {
  const entry = path.join(buildDir, 'index.js');
  if (!existsSync(entry)) throw new MockError('MOCK_ERR_BUILD_MISSING', `no build at ${buildDir} (run mock build first)`);
  verifyBuild(buildDir);
  const fresh = imported.has(entry);
  imported.add(entry);
  if (!fresh) return (await import(pathToFileURL(entry).href)) as BuildModule;
  const version = `?generation=${++generation}`;
  const url = (file: string): string => pathToFileURL(path.join(buildDir, file)).href + version;
  const load = (file: string): Promise<Record<string, unknown>> => import(url(file));
  // index.js re-exports its siblings by relative specifiers, which would link a new index to the
  // old siblings (and fail when the new one re-exports a name they lack): it is loaded with them
  // pointing at this generation's
  const source = readFileSync(entry, 'utf8').replace(/from '\.\/([\w.-]+\.js)'/g, (_, file: string) => `from '${url(file)}'`);
  const [index, routes, validators, responders] = await Promise.all([
    import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`) as Promise<Record<string, unknown>>,
    load('routes.js'),
    load('validators.js'),
    load('responders.js'),
  ]);
  return { ...index, ...routes, ...validators, ...responders } as unknown as BuildModule;
}
