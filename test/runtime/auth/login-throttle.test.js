// runtime/control/auth login throttling: five failures a minute per username or address, then 429 with a
// growing Retry-After; a success clears it. A fake clock stands in for waiting.
import t from 'tap';
import { randomBytes, scryptSync } from 'node:crypto';
import { createAuth } from '../../../dist/runtime/control/auth/index.js';
import { LoginThrottle, throttleBudget } from '../../../dist/runtime/control/auth/login-throttle.js';
import { MemoryStore } from '../../../dist/runtime/store/index.js';

// ops's password as a configured password_hash of a low scrypt cost: every login checks it (some
// eighty here), and at the default cost (about 100 ms of CPU each) they were most of this file's time
const salt = randomBytes(16);
const N = 1024;
const passwordHash = `scrypt$${N}$8$1$${salt.toString('base64')}$${scryptSync('right-password', salt, 32, { N, r: 8, p: 1 }).toString('base64')}`;

function setup() {
  const clock = { now: 1_700_000_000_000 };
  const auth = createAuth({ enabled: true, seedDevUsers: false, now: () => clock.now, users: [{ username: 'ops', role: 'admin', password_hash: passwordHash }] });
  const login = (password, client = '10.0.0.1', username = 'ops') => auth.login({ username, password }, client);
  return { clock, login };
}

t.test('the sixth try within a minute is refused, even with the right password, until Retry-After passes', async (t) => {
  const { clock, login } = setup();
  for (let i = 0; i < 5; i++) t.equal((await login('wrong')).status, 401, `failure ${i + 1} is checked`);
  const locked = await login('right-password');
  t.equal(locked.status, 429);
  t.equal(locked.retryAfterSeconds, 2);
  t.match(locked.error, /too many failed logins.*try again in 2 s/);
  clock.now += 1_000;
  t.equal((await login('right-password')).status, 429, 'still locked a second later');
  clock.now += 1_000;
  t.equal((await login('right-password')).status, 200, 'the right password works once the lock ends');
  for (let i = 0; i < 4; i++) t.equal((await login('wrong')).status, 401, 'a success cleared the count');
  t.equal((await login('right-password')).status, 200);
});

t.test('every failure after a lock locks again for twice as long, up to 15 minutes', async (t) => {
  const { clock, login } = setup();
  for (let i = 0; i < 5; i++) await login('wrong');
  const waits = [];
  for (let i = 0; i < 12; i++) {
    const { retryAfterSeconds } = await login('wrong');
    waits.push(retryAfterSeconds);
    clock.now += retryAfterSeconds * 1000;
    t.equal((await login('wrong')).status, 401, 'checked again once the lock ended');
  }
  t.strictSame(waits, [2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900], 'no free tries come back while the failures go on');
});

t.test('an hour without failures starts afresh', async (t) => {
  const { clock, login } = setup();
  for (let i = 0; i < 6; i++) await login('wrong');
  clock.now += 61 * 60_000;
  for (let i = 0; i < 4; i++) t.equal((await login('wrong')).status, 401, 'free tries again');
  t.equal((await login('right-password')).status, 200);
});

t.test('failures count per username and per address', async (t) => {
  const { login } = setup();
  for (let i = 0; i < 5; i++) await login('wrong', `10.0.0.${i + 10}`);
  t.equal((await login('right-password', '10.9.9.9')).status, 429, 'one username from many addresses');
  const other = setup();
  for (let i = 0; i < 5; i++) await other.login('wrong', '10.0.0.1', `user${i}`);
  t.equal((await other.login('right-password', '10.0.0.1')).status, 429, 'many usernames from one address');
  t.equal((await other.login('right-password', '10.0.0.2')).status, 200, 'another address is not held up');
});

t.test('failures older than a minute do not add up to a lock', async (t) => {
  const { clock, login } = setup();
  for (let i = 0; i < 4; i++) await login('wrong');
  clock.now += 61_000;
  for (let i = 0; i < 4; i++) t.equal((await login('wrong')).status, 401);
  t.equal((await login('right-password')).status, 200);
});

t.test('the table of keys stays bounded: past its budget the least recently failed are forgotten', async (t) => {
  let now = 0;
  const store = new MemoryStore('admin-login-throttle', throttleBudget(100));
  const throttle = new LoginThrottle(store, () => now);
  for (let i = 0; i < 1_000; i++) {
    now += 1;
    await throttle.failed([`user:${i}`]);
  }
  const { entries, bytes, max_bytes } = store.usage();
  t.ok(bytes <= max_bytes, `within its budget (${bytes} of ${max_bytes} bytes)`);
  t.ok(entries >= 100 && entries < 200, `about max_keys kept (${entries})`);
  t.equal(store.get('user:999').failures.length, 1, 'the newest is kept');
  t.equal(store.get('user:0'), undefined, 'the oldest is forgotten');
});
