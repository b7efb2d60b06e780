// runtime/control/auth users: development seeds and their warning, configured users, settings errors, user management.
import t from 'tap';
import { createAuth, devUsersWarning, hashPassword } from '../../../dist/runtime/control/auth/index.js';

const SECRET = 's'.repeat(32);
const recorder = () => {
  const warnings = [];
  return { warnings, logger: { warn: (msg) => warnings.push(msg) } };
};
const loginStatus = async (auth, username, password) => (await auth.login({ username, password })).status;
const bearer = async (auth, username, password) => ({
  authorization: `Bearer ${(await auth.login({ username, password })).data.access_token}`,
});

t.test('without JWT_SECRET the three development users are seeded, for one warning naming the admin address', async (t) => {
  const { warnings, logger } = recorder();
  const auth = createAuth({ enabled: true, seedDevUsers: true, logger });
  t.strictSame(warnings, [], 'the server warns once it listens, so the warning can say where');
  t.strictSame(
    auth.seededDevUsers.map((u) => u.username),
    ['admin', 'editor', 'viewer'],
  );
  const warning = devUsersWarning(auth.seededDevUsers, 'http://0.0.0.0:9080');
  t.match(warning, 'JWT_SECRET is not set');
  t.match(warning, 'admin / admin-dev-password, editor / editor-dev-password, viewer / viewer-dev-password');
  t.match(warning, 'can reach the admin API at http://0.0.0.0:9080');
  t.match(warning, 'MOCK_DISABLE_DEV_SEED_USERS=true');
  t.match(warning, 'set JWT_SECRET and admin.auth.users');
  t.strictSame(await auth.listUsers(), {
    status: 200,
    data: [
      { username: 'admin', role: 'admin', seeded: true },
      { username: 'editor', role: 'editor', seeded: true },
      { username: 'viewer', role: 'viewer', seeded: true },
    ],
  });
  for (const role of ['admin', 'editor', 'viewer']) {
    const { status, data } = await auth.login({ username: role, password: `${role}-dev-password` });
    t.equal(status, 200, role);
    t.strictSame(data.user, { username: role, role });
  }
  t.strictSame(warnings, [], 'logins add no warnings');
});

t.test('seedDevUsers false seeds nobody', async (t) => {
  const { warnings, logger } = recorder();
  const auth = createAuth({
    enabled: true,
    seedDevUsers: false,
    logger,
    users: [{ username: 'ops', role: 'admin', password: 'ops-password' }],
  });
  t.strictSame(warnings, []);
  t.strictSame(auth.seededDevUsers, []);
  t.strictSame((await auth.listUsers()).data, [{ username: 'ops', role: 'admin', seeded: false }]);
  t.equal(await loginStatus(auth, 'admin', 'admin-dev-password'), 401);
  t.equal(await loginStatus(auth, 'ops', 'ops-password'), 200);
});

t.test('a JWT secret seeds nobody', async (t) => {
  const { warnings, logger } = recorder();
  const auth = createAuth({ enabled: true, seedDevUsers: true, jwtSecret: SECRET, logger });
  t.equal(await loginStatus(auth, 'admin', 'admin-dev-password'), 401);
  t.strictSame((await auth.listUsers()).data, []);
  t.strictSame(warnings, ['admin auth is enabled but has no users, so nobody can log in (add admin.auth.users)']);
});

t.test('auth disabled seeds nobody and warns about nothing', async (t) => {
  const { warnings, logger } = recorder();
  createAuth({ enabled: false, seedDevUsers: true, logger });
  t.strictSame(warnings, []);
});

t.test('a configured user replaces the development user of the same name', async (t) => {
  const { warnings, logger } = recorder();
  const auth = createAuth({
    enabled: true,
    seedDevUsers: true,
    logger,
    users: [{ username: 'admin', role: 'admin', password: 'my-own-admin-password' }],
  });
  t.equal(await loginStatus(auth, 'admin', 'admin-dev-password'), 401);
  t.equal(await loginStatus(auth, 'admin', 'my-own-admin-password'), 200);
  t.strictSame(
    (await auth.listUsers()).data.map((u) => [u.username, u.seeded]),
    [
      ['admin', false],
      ['editor', true],
      ['viewer', true],
    ],
  );
  t.strictSame(warnings, []);
  const warning = devUsersWarning(auth.seededDevUsers, 'http://127.0.0.1:9080');
  t.notMatch(warning, 'admin-dev-password');
  t.match(warning, 'editor / editor-dev-password, viewer / viewer-dev-password');
});

t.test('hashPassword makes a password_hash configured users can log in with', async (t) => {
  const hash = await hashPassword('correct horse battery');
  t.match(hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
  t.not(await hashPassword('correct horse battery'), hash, 'a fresh salt each time');
  const auth = createAuth({
    enabled: true,
    seedDevUsers: true,
    jwtSecret: SECRET,
    users: [
      { username: 'alice', role: 'editor', password_hash: hash },
      { username: 'bob', role: 'viewer', password: 'bob-password' },
    ],
  });
  const { status, data } = await auth.login({ username: 'alice', password: 'correct horse battery' });
  t.equal(status, 200);
  t.strictSame(data.user, { username: 'alice', role: 'editor' });
  t.equal(await loginStatus(auth, 'alice', 'correct horse battery!'), 401);
  t.equal(await loginStatus(auth, 'bob', 'bob-password'), 200);
  t.equal(await loginStatus(auth, 'bob', hash), 401);
  t.notMatch(JSON.stringify(await auth.listUsers()), /scrypt|password/, 'listing never shows hashes');
});

t.test('settings errors fail startup with MOCK_ERR_AUTH_CONFIG naming the input', async (t) => {
  const base = { enabled: true, seedDevUsers: true, logger: { warn() {} } };
  const fails = (options, message) =>
    t.throws(() => createAuth({ ...base, ...options }), { name: 'MockError', code: 'MOCK_ERR_AUTH_CONFIG', message }, message);

  fails({ jwtSecret: 'short' }, 'JWT_SECRET is 5 bytes but needs at least 32 (generate one with: openssl rand -base64 48)');
  fails({ jwtSecret: '' }, 'JWT_SECRET is 0 bytes but needs at least 32 (generate one with: openssl rand -base64 48)');
  // Checked even when auth is off, so the mistake shows before it is switched on.
  fails({ enabled: false, jwtSecret: 'x'.repeat(31) }, 'JWT_SECRET is 31 bytes but needs at least 32 (generate one with: openssl rand -base64 48)');
  t.doesNotThrow(() => createAuth({ ...base, jwtSecret: 'é'.repeat(16) }), '32 bytes of UTF-8 are enough');
  fails({ managementToken: '' }, 'the hosted-mode management token is empty (set it to a long random value, or unset it for a self-hosted server)');
  fails({ accessTtlSeconds: 0 }, 'admin auth accessTtlSeconds must be a positive whole number of seconds (got 0)');
  fails({ refreshTtlSeconds: 1.5 }, 'admin auth refreshTtlSeconds must be a positive whole number of seconds (got 1.5)');

  fails(
    { users: [{ username: 'carol', role: 'editor' }] },
    'admin.auth.users: user "carol" needs exactly one of password or password_hash (hashPassword makes a password_hash)',
  );
  fails(
    { users: [{ username: 'carol', role: 'editor', password: 'x', password_hash: await hashPassword('x') }] },
    'admin.auth.users: user "carol" needs exactly one of password or password_hash (hashPassword makes a password_hash)',
  );
  fails({ users: [{ username: 'carol', role: 'root', password: 'x' }] }, 'admin.auth.users: user "carol" has role "root"; use admin, editor or viewer');
  fails({ users: [{ username: 'carol', password: 'x' }] }, 'admin.auth.users: user "carol" has role undefined; use admin, editor or viewer');
  fails(
    { users: [{ role: 'admin', password: 'x' }] },
    'admin.auth.users: entry 0 needs a username of 1 to 64 letters, digits or . _ @ - (got undefined)',
  );
  fails(
    {
      users: [
        { username: 'carol', role: 'admin', password: 'x' },
        { username: 'carol', role: 'viewer', password: 'y' },
      ],
    },
    'admin.auth.users: user "carol" is listed twice (keep one entry)',
  );
  const malformed = (hash, reason) =>
    fails(
      { users: [{ username: 'dave', role: 'viewer', password_hash: hash }] },
      `admin.auth.users: user "dave" has a malformed password_hash: ${reason} (make one with hashPassword)`,
    );
  malformed('$2b$10$abcdefghijklmnopqrstuv', 'expected scrypt$N$r$p$<salt base64>$<hash base64>');
  malformed('scrypt$abc$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==', 'N, r and p must be positive whole numbers');
  malformed('scrypt$1000$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==', 'N must be a power of two above 1 (got 1000)');
  malformed('scrypt$1048576$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==', 'its cost (N, r, p) is too high to check at login');
  malformed('scrypt$16384$8$1$not base64!$aGFzaGhhc2hoYXNoaGFzaA==', 'salt and hash must be base64');
  malformed('scrypt$16384$8$1$c2FsdA==$aGFzaGhhc2hoYXNoaGFzaA==', 'salt must be at least 8 bytes and hash at least 16 bytes');
});

t.test('user management: create, list, delete, and the last admin stays', async (t) => {
  const auth = createAuth({
    enabled: true,
    seedDevUsers: false,
    jwtSecret: SECRET,
    users: [{ username: 'root', role: 'admin', password: 'root-password' }],
  });

  t.strictSame(await auth.createUser({ username: 'erin', password: 'erin-password', role: 'editor' }), {
    status: 201,
    data: { username: 'erin', role: 'editor' },
  });
  t.equal(await loginStatus(auth, 'erin', 'erin-password'), 200);
  t.strictSame(await auth.listUsers(), {
    status: 200,
    data: [
      { username: 'root', role: 'admin', seeded: false },
      { username: 'erin', role: 'editor', seeded: false },
    ],
  });

  t.strictSame(await auth.createUser({ username: 'erin', password: 'other-password', role: 'viewer' }), {
    status: 409,
    error: 'user "erin" already exists (delete it first or pick another username)',
  });
  t.strictSame(await auth.createUser(null), { status: 400, error: 'create user body must be a JSON object with username, password, role' });
  t.strictSame(await auth.createUser({ username: 'x', password: 'long-enough' }), {
    status: 400,
    error: 'create user body field role must be a non-empty string',
  });
  t.strictSame(await auth.createUser({ username: 'x y', password: 'long-enough', role: 'viewer' }), {
    status: 400,
    error: 'username must be 1 to 64 letters, digits or . _ @ -',
  });
  t.strictSame(await auth.createUser({ username: 'x', password: 'short', role: 'viewer' }), {
    status: 400,
    error: 'password must be at least 8 characters',
  });
  t.strictSame(await auth.createUser({ username: 'x', password: 'long-enough', role: 'owner' }), {
    status: 400,
    error: 'role must be admin, editor or viewer (got "owner")',
  });

  t.strictSame(await auth.deleteUser('nobody'), { status: 404, error: 'user "nobody" not found' });
  t.strictSame(await auth.deleteUser('root'), {
    status: 409,
    error: 'cannot delete "root": it is the last admin (create another admin first)',
  });

  // Deleting a user ends its tokens.
  const erin = await bearer(auth, 'erin', 'erin-password');
  const erinRefresh = (await auth.login({ username: 'erin', password: 'erin-password' })).data.refresh_token;
  t.strictSame(await auth.deleteUser('erin'), { status: 200, data: { message: 'deleted user "erin"' } });
  t.equal(await loginStatus(auth, 'erin', 'erin-password'), 401);
  t.strictSame(await auth.authorize({ method: 'POST', endpoint: 'mocks', headers: erin }), {
    ok: false,
    status: 401,
    error: 'the user of this access token no longer exists or has changed (log in again at POST /__mock/auth/login)',
  });
  t.equal((await auth.refresh({ refresh_token: erinRefresh })).status, 401);

  // Re-created under the same name with another role, the old token still does not come back.
  const rootToken = await bearer(auth, 'root', 'root-password');
  t.equal((await auth.createUser({ username: 'frank', password: 'frank-password', role: 'viewer' })).status, 201);
  const frankViewer = await bearer(auth, 'frank', 'frank-password');
  t.equal((await auth.deleteUser('frank')).status, 200);
  t.equal((await auth.createUser({ username: 'frank', password: 'frank-password', role: 'admin' })).status, 201);
  t.equal((await auth.me(frankViewer)).status, 401);

  // With a second admin, either may go, but never both.
  t.strictSame(await auth.deleteUser('root'), { status: 200, data: { message: 'deleted user "root"' } });
  t.equal((await auth.me(rootToken)).status, 401, 'root token ended with root');
  t.strictSame(await auth.deleteUser('frank'), {
    status: 409,
    error: 'cannot delete "frank": it is the last admin (create another admin first)',
  });
});

t.test('concurrent creates of one name: exactly one wins', async (t) => {
  const auth = createAuth({ enabled: true, seedDevUsers: true, logger: { warn() {} } });
  const results = await Promise.all(
    ['editor', 'viewer'].map((role) => auth.createUser({ username: 'gina', password: 'gina-password', role })),
  );
  t.strictSame(results.map((r) => r.status).sort(), [201, 409]);
  t.equal((await auth.listUsers()).data.filter((u) => u.username === 'gina').length, 1);
});
