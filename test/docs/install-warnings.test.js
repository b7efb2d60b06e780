// docs/install.md names every engine warning `npm install` prints in a clone on the oldest Node the
// package supports: uws-pack's alone. A dependency (development ones too: a clone installs them)
// whose `engines` leave that Node out would add one the page does not explain.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { root } from '../helpers/cli.js';

const EXPLAINED = new Set(['uws-pack']);

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const oldest = semver.minVersion(manifest.engines.node).version;

t.test(`every locked package runs on Node ${oldest}, or docs/install.md explains its warning`, async (t) => {
  const refused = Object.entries(lock.packages)
    .filter(([at, entry]) => at !== '' && typeof entry.engines?.node === 'string' && !semver.satisfies(oldest, entry.engines.node))
    // an aliased package (uWebSockets.js: npm:uws-pack) is locked under its alias, its own name beside
    .map(([at, entry]) => ({ name: entry.name ?? at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length), engines: entry.engines.node }))
    .filter(({ name }) => !EXPLAINED.has(name));
  t.same(refused, [], 'no engine warning beyond the ones docs/install.md explains');
  const page = readFileSync(path.join(root, 'docs', 'install.md'), 'utf8');
  for (const name of EXPLAINED) t.match(page, `EBADENGINE … ${name}@`, `docs/install.md explains ${name}'s`);
});
