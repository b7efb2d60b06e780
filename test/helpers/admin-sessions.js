// The admin-session scenarios that must hold across two servers sharing their state: two workers of
// one `mock serve --workers 2`, or two instances on one Redis (test/e2e/workers-admin-sessions and
// redis-admin-sessions). Each side is `{ name, call(method, endpoint, body, token) }`, where
// `endpoint` is under /__mock/ and `call` answers {status, json}. `admin` logs in with the admin
// role, `second` is another user's credentials (the concurrent-refresh scenario logs in as it).

/** Registers the scenarios on `t`, in order; the throttle's comes last (five failures lock this client's address too). */
export function adminSessionScenarios(t, { one, two, admin, second }) {
  const login = (side, { username, password }) => side.call('POST', 'auth/login', { username, password });
  const refresh = (side, session) => side.call('POST', 'auth/refresh', { refresh_token: session.refresh_token });
  /** An admin write (reads need no token). */
  const write = (side, token) => side.call('POST', 'logs/clear', undefined, token);
  const both = [one, two];

  t.test(`a login made through ${one.name} refreshes through ${two.name}, and a refresh token reused on either revokes the login on both`, async (t) => {
    const first = await login(one, admin);
    t.equal(first.status, 200, first.json.error ?? `logged in through ${one.name}`);
    const second = await refresh(two, first.json.data);
    t.equal(second.status, 200, second.json.error ?? `${two.name} rotates the refresh token ${one.name} issued`);
    const third = await refresh(one, second.json.data);
    t.equal(third.status, 200, `and ${one.name} the one ${two.name} issued`);
    for (const side of both) t.equal((await write(side, third.json.data.access_token)).status, 200, `the newest access token works on ${side.name}`);

    const reused = await refresh(two, first.json.data);
    t.equal(reused.status, 401);
    t.match(reused.json.error, /already used, so every token of its login is revoked/, `${two.name} knows the token was used on ${one.name}`);
    for (const side of both) {
      const refused = await write(side, third.json.data.access_token);
      t.equal(refused.status, 401);
      t.match(refused.json.error, /a refresh token of its login was used twice/, `the login is revoked on ${side.name}`);
    }
    t.equal((await refresh(one, third.json.data)).status, 401, 'its newest refresh token too');
  });

  t.test(`one refresh token taken through ${one.name} and ${two.name} at once: one rotates it, the other finds it used`, async (t) => {
    const session = (await login(two, second)).json.data;
    const answers = await Promise.all([refresh(one, session), refresh(two, session)]);
    t.same(answers.map((a) => a.status).sort(), [200, 401], answers.map((a) => a.json.error).join('\n'));
    const winner = answers.find((a) => a.status === 200).json.data;
    t.match(answers.find((a) => a.status === 401).json.error, /was already used, so every token of its login is revoked/, 'the other saw it used, a reuse');
    for (const side of both) t.equal((await refresh(side, winner)).status, 401, "so the winner's login is revoked as well");
  });

  t.test(`a logout through ${one.name} ends the login on ${two.name}, which issued it`, async (t) => {
    const session = (await login(two, admin)).json.data;
    t.equal((await write(one, session.access_token)).status, 200);
    const out = await one.call('POST', 'auth/logout', undefined, session.access_token);
    t.equal(out.status, 200, out.json.error ?? `logged out through ${one.name}`);
    const refused = await write(two, session.access_token);
    t.equal(refused.status, 401, 'the access token is refused where it was issued');
    t.match(refused.json.error, /revoked by logout/);
    t.equal((await refresh(two, session)).status, 401, 'and so is its refresh token');
  });

  t.test(`a user created through ${one.name} logs in through ${two.name}; deleted there, it is gone from both`, async (t) => {
    const token = (await login(one, admin)).json.data.access_token;
    const kim = { username: 'kim', password: 'kim-password-1' };
    const created = await one.call('POST', 'auth/users', { ...kim, role: 'editor' }, token);
    t.equal(created.status, 201, created.json.error ?? `created through ${one.name}`);
    t.equal((await two.call('POST', 'auth/users', { username: 'kim', password: 'other-password', role: 'viewer' }, token)).status, 409, `the name is taken on ${two.name}`);
    const session = await login(two, kim);
    t.equal(session.status, 200, session.json.error ?? `logged in through ${two.name}`);
    t.same(session.json.data.user, { username: 'kim', role: 'editor' });
    t.ok(
      (await one.call('GET', 'auth/users', undefined, token)).json.data.some((u) => u.username === 'kim'),
      `listed by ${one.name}`,
    );
    t.equal((await two.call('DELETE', 'auth/users/kim', undefined, token)).status, 200);
    t.equal((await login(one, kim)).status, 401, `${one.name} refuses the deleted user`);
    t.equal((await one.call('GET', 'auth/me', undefined, session.json.data.access_token)).status, 401, 'and its token');
  });

  t.test(`the login throttle counts the failures made through ${one.name} and ${two.name}`, async (t) => {
    t.equal((await login(two, admin)).status, 200, "a success clears this address's failures of the tests before");
    for (const side of [one, two, one, two, one]) t.equal((await login(side, { username: second.username, password: 'wrong-password' })).status, 401);
    for (const side of both) t.equal((await login(side, second)).status, 429, `five failures spread over both lock the user on ${side.name}`);
  });
}
