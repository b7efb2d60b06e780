// GitHub's REST description (the npm package @octokit/openapi), fetched with npm into a cache that
// the benchmarks share between runs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const cache = path.join(os.tmpdir(), 'mock-bench-scale');

/** The path of api.github.com.json, fetched on first use. */
export function githubDescription(who) {
  const file = path.join(cache, 'package', 'generated', 'api.github.com.json');
  if (existsSync(file)) return file;
  mkdirSync(cache, { recursive: true });
  console.error(`${who}: fetching @octokit/openapi from the npm registry …`);
  const tarball = execFileSync('npm', ['pack', '@octokit/openapi', '--silent', '--pack-destination', cache], { encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', path.join(cache, tarball), '-C', cache]);
  return file;
}
