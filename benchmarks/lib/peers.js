// Peers a benchmark measures against that the project's own install leaves out (benchmarks/peers/<name>/):
// installed from the npm registry on the benchmark's first run with `npm ci`, from their own
// package-lock.json, so that `npm install` in a clone neither downloads them nor prints their
// engine warnings (GraphQL Yoga's dependencies ask for Node 22.15), and so that each peer runs
// the version its lock names rather than whatever the project's tree deduplicated it to.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The folder of peers `name` (benchmarks/peers/<name>/), installed if it is not yet, or not as its lock says. */
export function installedPeers(name) {
  const dir = fileURLToPath(new URL(`../peers/${name}/`, import.meta.url));
  // npm writes node_modules/.package-lock.json last: its absence, or a lock changed since, means install
  const installed = `${dir}node_modules/.package-lock.json`;
  if (existsSync(installed) && sameVersions(readFileSync(installed, 'utf8'), readFileSync(`${dir}package-lock.json`, 'utf8'))) return dir;
  console.log(`installing the ${name} peers (benchmarks/peers/${name}) from the npm registry: npm ci`);
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel', 'error'], { cwd: dir, stdio: 'inherit' });
  if (npm.status !== 0) throw new Error(`npm ci in benchmarks/peers/${name} failed (exit ${npm.status ?? npm.signal}); run it there to see why`);
  return dir;
}

/** Whether an installed tree holds the packages a lock names, at its versions. */
function sameVersions(installed, lock) {
  const have = JSON.parse(installed).packages;
  return Object.entries(JSON.parse(lock).packages).every(([at, entry]) => at === '' || have[at]?.version === entry.version);
}
