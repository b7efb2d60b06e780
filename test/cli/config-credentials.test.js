// Every credential-bearing key of the schema (marked x-secret in src/config/schema.json) and the
// password of every URL stay hidden wherever the CLI displays configuration: `mock config show`,
// `mock serve --print-config`, the errors of `mock config validate`, of a build that cannot
// fetch a description, of a command given an --admin-url it cannot use and of a bench target it
// refuses. The real CLI, as a process.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, runMock, tmpdir } from '../helpers/cli.js';

const dir = tmpdir();
const file = (name, text) => {
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};

const SECRETS = [
  'SPEC-PASS-1',
  'APIKEY-SECRET-2',
  'BASIC-SECRET-3',
  'TOKEN-SECRET-4',
  'JWT-SECRET-5',
  'CLIENT-SECRET-6',
  'MANAGEMENT-SECRET-7',
  'ADMIN-JWT-SECRET-8',
  'ADMIN-PASS-9',
  'PROXY-PASS-10',
  'HASH-SECRET-11',
];

const full = file(
  'mock.yaml',
  `specs: ["https://spec-user:SPEC-PASS-1@specs.example.com/api.yaml"]
auth:
  schemes:
    key: { api_keys: [APIKEY-SECRET-2] }
    basic: { users: [{ username: ann, password: BASIC-SECRET-3 }] }
    bearer: { tokens: [TOKEN-SECRET-4], jwt: { secret: JWT-SECRET-5 } }
  token_endpoint: { clients: [{ client_id: app, client_secret: CLIENT-SECRET-6 }] }
admin:
  management_token: MANAGEMENT-SECRET-7
  auth:
    jwt_secret: ADMIN-JWT-SECRET-8-0123456789abcdefghijklmn
    users: [{ username: root, role: admin, password: ADMIN-PASS-9 }, { username: ops, role: viewer, password_hash: HASH-SECRET-11 }]
proxy: { upstream_url: "https://proxy-user:PROXY-PASS-10@api.example.com/v1" }
`,
);

for (const args of [['config', 'show'], ['serve', '--print-config']]) {
  t.test(`mock ${args.join(' ')} prints no credential`, async (t) => {
    const { code, stdout, stderr } = await runMock([...args, '-c', full], { cwd: dir });
    t.equal(code, 0, stderr);
    for (const secret of SECRETS) t.notMatch(stdout, secret, `no ${secret}`);
    t.match(stdout, /\n {4}key:\n {6}api_keys: # from file\n {8}- <redacted>\n/, 'api keys');
    t.match(stdout, /\n {8}- username: ann\n {10}password: <redacted>\n/, 'basic users: the name shows, the password does not');
    t.match(stdout, /\n {6}tokens: # from file\n {8}- <redacted>\n/, 'opaque tokens');
    t.match(stdout, /\n {8}secret: <redacted> # from file\n/, 'the JWT secret');
    t.match(stdout, /\n {6}- client_id: app\n {8}client_secret: <redacted>\n/, 'client secrets');
    t.match(stdout, '\n  management_token: <redacted> # from file\n');
    t.match(stdout, '\n    jwt_secret: <redacted> # from file\n');
    t.match(stdout, /\n {6}- username: root\n {8}role: admin\n {8}password: <redacted>\n {6}- username: ops\n {8}role: viewer\n {8}password_hash: <redacted>\n/, 'admin users');
    t.match(stdout, '\n  upstream_url: https://proxy-user:[redacted]@api.example.com/v1 # from file\n', "the upstream's password");
    t.match(stdout, '\n  - path: https://spec-user:[redacted]@specs.example.com/api.yaml\n', "a description URL's password");
  });
}

t.test('an upstream URL from the environment', async (t) => {
  const { code, stdout } = await runMock(['config', 'show', '-c', full], { cwd: dir, env: { MOCK_PROXY_UPSTREAM: 'http://env-token-PROXY-PASS-10@localhost:8080' } });
  t.equal(code, 0);
  t.match(stdout, '\n  upstream_url: http://[redacted]@localhost:8080 # from env\n', 'a lone user name is often a token: hidden too');
  t.notMatch(stdout, 'PROXY-PASS-10');
});

t.test('mock config validate names bad values without the credentials in them', async (t) => {
  const bad = file(
    'bad.yaml',
    `auth:
  schemes:
    key: { api_keys: APIKEY-SECRET-2 }
    bearer: { jwt: { secret: JWT-SECRET-5, jwks_file: keys.json } }
    basic: { users: [{ username: ann, password: 12345678 }] }
proxy: { upstream_url: "ftp://proxy-user:PROXY-PASS-10@api.example.com" }
`,
  );
  const { code, stdout, stderr } = await runMock(['config', 'validate', '-c', bad], { cwd: dir });
  t.equal(code, 1);
  const out = stdout + stderr;
  for (const secret of [...SECRETS, '12345678']) t.notMatch(out, secret, `no ${secret}`);
  t.match(out, 'auth.schemes.key.api_keys: expected array, got a value of 15 characters (not shown)');
  t.match(out, 'auth.schemes.bearer.jwt: expected one of secret and jwks_file, got {"secret":"<redacted>","jwks_file":"keys.json"');
  t.match(out, 'auth.schemes.basic.users[0].password: expected string, got a number (not shown)');
  t.match(out, 'proxy.upstream_url: expected an http(s) URL, got "ftp://proxy-user:[redacted]@api.example.com"');

  const query = file('query.yaml', 'proxy: { upstream_url: "https://proxy-user:PROXY-PASS-10@api.example.com/?x=1" }\n');
  const checked = await runMock(['config', 'validate', '-c', query], { cwd: dir });
  t.equal(checked.code, 1);
  t.notMatch(checked.stdout + checked.stderr, 'PROXY-PASS-10');
  t.match(checked.stderr, 'proxy.upstream_url: expected an http(s) URL without a query or fragment (each request\'s own query is forwarded), got "https://proxy-user:[redacted]@api.example.com/?x=1"');
});

t.test("a description URL's password is not in the error of a build that cannot fetch it", async (t) => {
  const { code, stderr } = await runMock(['build', '--spec', 'https://spec-user:SPEC-PASS-1@127.0.0.1:1/api.yaml', '--out', path.join(dir, 'out')], { cwd: dir });
  t.equal(code, 1);
  t.notMatch(stderr, 'SPEC-PASS-1');
  t.match(stderr, 'https://spec-user:[redacted]@127.0.0.1:1/api.yaml: cannot fetch: ');
});

t.test("an --admin-url's password is not in the error of a command that cannot use it", async (t) => {
  const { code, stderr } = await runMock(['chaos', 'profile', 'list', '--admin-url', 'http://ops:ADMIN-URL-PASS-12@127.0.0.1:1'], { cwd: dir });
  t.equal(code, 1);
  t.notMatch(stderr, 'ADMIN-URL-PASS-12');
  t.match(stderr, 'cannot reach the admin API at http://ops:[redacted]@127.0.0.1:1 (');
});

t.test("a bench target's password is not in the error of a target the bench refuses", async (t) => {
  const spec = path.join(root, 'examples', 'petstore.yaml');
  for (const args of [
    ['bench', '--spec', spec, '--duration', '1s', '--target', 'http://ops:BENCH-PASS-13@127.0.0.1:1/?x=1'],
    ['bench', '--spec', spec, '--duration', '1s', '--target', 'ftp://ops:BENCH-PASS-13@127.0.0.1:1'],
    ['bench-pipeline', '--target', 'https://ops:BENCH-PASS-13@127.0.0.1:1'],
  ]) {
    const { code, stderr } = await runMock(args, { cwd: dir });
    t.not(code, 0, args.join(' '));
    t.notMatch(stderr, 'BENCH-PASS-13');
    t.match(stderr, '--target: ');
    t.match(stderr, 'ops:[redacted]@127.0.0.1:1');
  }
});
