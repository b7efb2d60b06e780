import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildModule } from './build-module.js';
import { MockError } from '../../common/errors.js';

/** Ajv's standalone code requires its runtime helpers; resolve them from this installation. */
export const runtimeRequire = createRequire(import.meta.url);

export async function loadBuild(buildDir: string): Promise<BuildModule> {
  const entry = path.join(buildDir, 'index.js');
  if (!existsSync(entry)) throw new MockError('MOCK_ERR_BUILD_MISSING', `no build at ${buildDir} (run mock build first)`);
  return (await import(pathToFileURL(entry).href)) as BuildModule;
}
