import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of this package (where its package.json is), found by walking up from this module:
 * compiled it sits in dist/common/, bundled for the command line in dist/bundle/chunks/, in a
 * checkout and in an installed copy alike. No folder under dist/ has a package.json of its own.
 */
function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`the package.json of mock is missing (looked above ${from}); reinstall mock`);
  }
}

export const PACKAGE_ROOT: string = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

/** A file the package ships, by its path from the package's folder (`blueprints`, `dashboard/dist`). */
export const packageFile = (relative: string): string => path.join(PACKAGE_ROOT, relative);

/**
 * A compiled module by its path under dist/ (`src/cli/build-worker.js`): what a worker thread or a
 * child process starts from, which the command line's bundle does not hold as a file of its own.
 */
export const compiledModule = (relative: string): string => path.join(PACKAGE_ROOT, 'dist', relative);

/** An entry of the command line's bundle (scripts/bundle-cli.js) by its name: `workers/build-worker`. */
export const bundleEntry = (name: string): string => path.join(PACKAGE_ROOT, 'dist', 'bundle', `${name}.js`);
