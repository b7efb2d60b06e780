// A local Verdaccio (an npm registry) for the scenario registry tests: a temp storage, no uplinks
// (nothing is proxied to the public registry), a user created through the npm adduser protocol.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { tmpdir } from './cli.js';
import { freePort } from './shared-state.js';

const require = createRequire(import.meta.url);

/** Starts Verdaccio; resolves with {url, token, npmrc (the lines of a .npmrc for it), stop()}. */
export async function startVerdaccio(t) {
  const dir = tmpdir();
  const port = await freePort();
  const config = path.join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      `storage: ${path.join(dir, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${path.join(dir, 'htpasswd')}`,
      '    max_users: 10',
      'uplinks: {}',
      'packages:',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      'log: { type: stdout, format: json, level: warn }',
      '',
    ].join('\n'),
  );
  const bin = path.join(path.dirname(require.resolve('verdaccio/package.json')), 'bin', 'verdaccio');
  const child = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  t.teardown(() => child.kill());
  for (let i = 0; ; i++) {
    const up = await fetch(`${url}/-/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 300 || child.exitCode !== null) throw new Error(`verdaccio did not start\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const user = await fetch(`${url}/-/user/org.couchdb.user:tester`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'tester', password: 'a-test-password-1' }),
  }).then((r) => r.json());
  const npmrc = `registry=${url}/\n//127.0.0.1:${port}/:_authToken=${user.token}\n`;
  return { url, token: user.token, npmrc };
}
