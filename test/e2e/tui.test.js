// `mock tui` as a user runs it: inside a detached tmux session of a fixed size, against one real
// `mock serve --admin` (admin auth on and a hosted-mode management token, so both tokens are
// exercised: the chaos keys write), asserting what the screen
// shows (capture-pane) as requests arrive and keys are pressed (send-keys): the traffic, the live
// log and its pause, routes, unmatched requests, a chaos profile applied with Enter (checked
// through the admin API), a resize, and q giving the shell's screen back. Then the one-line
// failures: an admin URL nobody answers, a refused token, no terminal.
import t from 'tap';
import net from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { bin, root, runMock, startMock, tmpdir } from '../helpers/cli.js';
import { withoutRecorder } from '../helpers/plain-node.js';
import { until } from '../helpers/wait.js';

/** The process whose parent is `pid` (Linux: read from /proc, no ps or pgrep needed). */
function childOf(pid) {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "<pid> (<comm>) <state> <ppid> …": comm may hold spaces and parentheses, so read after the last ')'
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) return Number(name);
    } catch {
      // ended meanwhile
    }
  }
  return undefined;
}

const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).error === undefined;
// under CI=true a missing tmux fails the test instead of skipping it: CI must run it
const needsTmux = hasTmux || process.env.CI === 'true' ? false : 'tmux is missing: install it (apt-get install -y tmux) to drive mock tui in a real terminal; CI always runs this';

const petstore = path.join(root, 'examples', 'petstore.yaml');
// the tests decide the auth settings themselves
const management = 'tui-test-management-token';
const env = { MOCK_ADMIN_AUTH_ENABLED: 'true', JWT_SECRET: undefined, MOCK_DISABLE_DEV_SEED_USERS: undefined, MOCK_MANAGEMENT_TOKEN: management, MOCK_ADMIN_TOKEN: undefined, MOCK_ADMIN_URL: undefined };
// the clients started below get the management token from their flags only
const clientEnv = { MOCK_MANAGEMENT_TOKEN: undefined };
const server = await startMock(['--spec', petstore, '--out', path.join(tmpdir(), 'out'), '--admin', '--admin-port', '0'], { env });
t.teardown(() => server.stop());
const admin = server.adminUrl;

async function adminGet(endpoint, token) {
  const res = await fetch(`${admin}/__mock/api/${endpoint}`, { headers: token ? { authorization: `Bearer ${token}`, connection: 'close' } : { connection: 'close' } });
  return { status: res.status, body: await res.json() };
}

const login = await fetch(`${admin}/__mock/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', connection: 'close' }, body: JSON.stringify({ username: 'admin', password: 'admin-dev-password' }) });
const token = (await login.json()).data.access_token;

t.test('in a terminal: traffic, log, routes, unmatched, chaos, resize, quit', { skip: needsTmux }, async (t) => {
  const dir = tmpdir();
  const socket = path.join(dir, 'tmux.sock');
  // its own tmux server (no user config), with the test's environment minus tap's loader
  const tmuxEnv = { ...process.env, NODE_OPTIONS: withoutRecorder(process.env.NODE_OPTIONS), TERM: 'xterm-256color' };
  delete tmuxEnv.TMUX;
  delete tmuxEnv.MOCK_MANAGEMENT_TOKEN;
  const tmux = (...args) => {
    const r = spawnSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { env: tmuxEnv, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = `printf 'shell before the tui\\n'; ${quote(process.execPath)} ${quote(bin)} tui --admin-url ${quote(admin)} --token ${quote(token)} --management-token ${quote(management)}; echo "tui exited with $?"; exec cat`;
  tmux('new-session', '-d', '-s', 'tui', '-x', '120', '-y', '40', 'sh', '-c', command);
  t.teardown(() => {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
  });
  const screen = () => tmux('capture-pane', '-p', '-t', 'tui');
  /** Polls the screen until check(screen) holds; on time-out the error shows the screen as it is then. */
  const waitFor = async (check, what, ms = 20_000) => {
    try {
      await until(() => check(screen()), ms, what);
    } catch (e) {
      throw new Error(`${e.message}; the screen shows:\n${screen()}`);
    }
  };
  const shows = (pattern, what = String(pattern)) => waitFor((s) => pattern.test(s), `the screen to show ${what}`);
  const keys = async (...k) => {
    for (const key of k) {
      tmux('send-keys', '-t', 'tui', key);
      await new Promise((r) => setTimeout(r, 80));
    }
  };
  const lines = () => screen().replace(/\n$/, '').split('\n');

  await shows(/1 Overview\s+2 Log\s+3 Routes\s+4 Unmatched\s+5 Chaos\s+6 Fixtures/, 'the tab bar');
  t.notMatch(screen(), /shell before the tui/, 'the dashboard has the screen to itself (alternate screen)');
  t.match(lines()[0], /mock tui\s+http:\/\/127\.0\.0\.1:\d+\s+.*120×40/, 'the header names the admin URL and the size');
  t.match(lines()[38], /1-6\/Tab tabs\s+↑↓\/jk move\s+r refresh\s+\? help\s+q quit/, 'the help bar on the last line of the frame (one short of the terminal)');

  // traffic once the first sample set the baseline: five answered, one nothing matched
  await shows(/total 0\b/, 'the first sample');
  for (let i = 1; i <= 5; i += 1) await fetch(`${server.url}/v1/pets/${i}`, { headers: { connection: 'close' } });
  await fetch(`${server.url}/v1/nope`, { headers: { connection: 'close' } });
  await shows(/total 6\b/, 'the overview totals');
  await shows(/Requests\/s\s+now \S+\s+max [1-9]/, 'a rate');
  t.match(screen(), /[▁▂▃▄▅▆▇█]/, 'the charts draw');

  await keys('2');
  await shows(/GET\s+\/v1\/nope\s+404\s+\S+ ms\s+unmatched/, 'the live log, the unmatched request marked');
  t.match(screen(), /GET\s+\/v1\/pets\/5\s+200\s+\S+ ms\s+(example|generated)\s+GET \/v1\/pets\/\{petId\}/, 'what made the answer and the route that answered');
  t.match(lines()[0], /● live \(websocket\)/, 'the stream, not polling');
  t.match(screen(), /GET\s+\/v1\/pets\/5\s+200/);
  const log = lines().slice(3, 38).filter((l) => /\/v1\//.test(l));
  t.match(log.at(-1), /\/v1\/nope/, 'newest at the bottom');

  await keys('Space');
  await shows(/PAUSED, 0 new/, 'the pause');
  await fetch(`${server.url}/v1/pets/77`, { headers: { connection: 'close' } });
  await shows(/PAUSED, 1 new/, 'entries counted while paused');
  t.notMatch(screen(), /\/v1\/pets\/77/, 'but not shown');
  await keys('Space');
  await shows(/GET\s+\/v1\/pets\/77\s+200/, 'the log resumed');

  await keys('3');
  await shows(/coverage 33\.33% · 1 of 3 paths requested · 5 routes/, 'coverage');
  t.match(screen(), /GET\s+\/v1\/pets\/\{petId\}\s+0\s+6\s+0\s+.*200×6/, 'the route row with its answers');

  t.match(screen(), / GET \/v1\/pets · stages: .+ · last request –/, 'the selected route\'s request chain');

  await keys('Tab');
  await shows(/1 unmatched request, newest first/, 'the unmatched requests');
  t.match(screen(), /›\S+\s+GET\s+\/v1\/nope\s+404\s+\d+ close routes/);
  t.match(screen(), /GET \/v1\/pets\s+description, score \d/, 'its closest routes');
  t.match(screen(), /path: segment 2 is "nope", the route has "pets"/, 'and why each did not match');

  await keys('5');
  await shows(/›\s+slow_3g\s+built-in/, 'the profiles');
  t.match(screen(), /active profile: none/);
  await keys('j');
  await shows(/›\s+fast_3g/, 'the selection moved');
  await keys('Enter');
  await shows(/applied fast_3g/, 'the apply');
  await shows(/active profile: fast_3g · on: latency 562\.5 ms, traffic_shaping/);
  t.equal((await adminGet('chaos/config')).body.data.active_profile, 'fast_3g', 'the admin API says it is applied');
  await keys('x');
  await shows(/chaos reset to the settings of the start/);
  t.equal((await adminGet('chaos/config')).body.data.active_profile, null, 'and reset');
  t.equal((await adminGet('config')).body.data.latency.enabled, false);

  // a smaller window: the frame follows, nothing of the old one is left
  tmux('resize-window', '-t', 'tui', '-x', '80', '-y', '24');
  await shows(/80×24/, 'the new size');
  await waitFor(() => /q quit/.test(lines()[22] ?? ''), 'the help bar on line 23');
  t.ok(lines().every((l) => l.length <= 80), 'no line wider than the window');
  t.same(lines().slice(23).filter((l) => l.trim() !== ''), [], 'nothing below the frame');
  t.match(screen(), /active profile: none/, 'the tab is redrawn at the new size');
  tmux('resize-window', '-t', 'tui', '-x', '140', '-y', '45');
  await shows(/140×45/, 'the larger size');
  await waitFor(() => /q quit/.test(lines()[43] ?? ''), 'the help bar on line 44');

  await keys('?');
  await shows(/Enter\s+Chaos: apply the selected profile at once/, 'the help');
  await keys('?', 'q');
  await shows(/tui exited with 0/, 'the exit');
  t.equal(tmux('display-message', '-p', '-t', 'tui', '#{alternate_on}').trim(), '0', 'the alternate screen is left');
  t.match(screen(), /shell before the tui\s*\ntui exited with 0/, 'the shell\'s screen is back as it was');
  t.notMatch(screen(), /1 Overview/, 'no trace of the dashboard');

  // SIGTERM: the terminal is restored too, and the exit says which signal (128 + 15, as the shell
  // reports it: tmux's own pane_dead_status is sometimes never filled in). tmux's alternate_on
  // says whether the alternate screen was left (it stays 1 after a SIGKILL).
  const termCommand = `printf 'shell before the signal\\n'; ${quote(process.execPath)} ${quote(bin)} tui --admin-url ${quote(admin)}; echo "tui ended with $?"; exec cat`;
  tmux('new-session', '-d', '-s', 'term', '-x', '100', '-y', '30', 'sh', '-c', termCommand);
  const pane = (format) => tmux('display-message', '-p', '-t', 'term', format).trim();
  const termScreen = () => tmux('capture-pane', '-p', '-t', 'term');
  await until(() => /1 Overview/.test(termScreen()), 20_000, 'the dashboard in a second session');
  t.equal(pane('#{alternate_on}'), '1', 'it draws on the alternate screen');
  // without --management-token a write (Enter applies a profile) is refused, and the screen says why
  tmux('send-keys', '-t', 'term', '5');
  await until(() => /›\s+slow_3g/.test(termScreen()), 20_000, 'the profiles in the second session');
  tmux('send-keys', '-t', 'term', 'Enter');
  try {
    await until(() => /missing or wrong X-Mock-Management-Token/.test(termScreen()), 10_000, 'the refusal');
  } catch (e) {
    throw new Error(`${e.message}; the screen shows:\n${termScreen()}`);
  }
  t.equal((await adminGet('chaos/config')).body.data.active_profile, null, 'nothing applied without the management token');
  const dashboard = childOf(Number(pane('#{pane_pid}')));
  t.ok(dashboard, `the dashboard's process (${dashboard})`);
  process.kill(dashboard, 'SIGTERM');
  try {
    await until(() => /tui ended with \d+/.test(termScreen()), 10_000, 'the dashboard to end on SIGTERM');
  } catch (e) {
    throw new Error(`${e.message}; the screen shows:\n${termScreen()}`);
  }
  t.match(termScreen(), /tui ended with 143/, 'exit 128 + 15');
  t.equal(pane('#{alternate_on}'), '0', 'the alternate screen is left');
  t.notMatch(termScreen(), /1 Overview/, 'no trace of the dashboard');
});

t.test('the one admin client: --management-token (or MOCK_MANAGEMENT_TOKEN) on writes, and a refusal that names it', async (t) => {
  const target = ['--admin-url', admin, '--token', token];
  const refused = await runMock(['chaos', 'profile', 'apply', 'slow_3g', ...target], { env: clientEnv });
  t.equal(refused.code, 1);
  t.match(refused.stderr, /missing or wrong X-Mock-Management-Token header .*; pass the server's admin\.management_token as --management-token \(or MOCK_MANAGEMENT_TOKEN\)/);
  const wrong = await runMock(['chaos', 'profile', 'apply', 'slow_3g', ...target, '--management-token', 'not-the-token'], { env: clientEnv });
  t.match(wrong.stderr, /--management-token \(or MOCK_MANAGEMENT_TOKEN\) is not the server's admin\.management_token/);
  const applied = await runMock(['chaos', 'profile', 'apply', 'slow_3g', ...target, '--management-token', management], { env: clientEnv });
  t.equal(applied.code, 0, applied.stderr);
  t.equal((await adminGet('chaos/config')).body.data.active_profile, 'slow_3g');
  const fromEnv = await runMock(['chaos', 'profile', 'apply', 'fast_3g', ...target], { env: { MOCK_MANAGEMENT_TOKEN: management } });
  t.equal(fromEnv.code, 0, fromEnv.stderr);
  t.equal((await adminGet('chaos/config')).body.data.active_profile, 'fast_3g', 'the variable works as the flag');
  const reset = await fetch(`${admin}/__mock/api/chaos/config/reset`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-mock-management-token': management, connection: 'close' } });
  t.equal(reset.status, 200);
});

t.test('an admin URL nobody answers: one line naming it and the fix, exit 1', async (t) => {
  const probe = net.createServer();
  await new Promise((r) => probe.listen(0, '127.0.0.1', r));
  const port = probe.address().port;
  await new Promise((r) => probe.close(r));
  const res = await runMock(['tui', '--admin-url', `http://127.0.0.1:${port}`], { env: { MOCK_ADMIN_TOKEN: undefined } });
  t.equal(res.code, 1);
  t.equal(res.stdout, '');
  t.equal(res.stderr, `mock tui: cannot reach the admin API at http://127.0.0.1:${port} (ECONNREFUSED): start it with mock serve --admin, or pass --admin-url\n`);
});

t.test('a token the admin API refuses: one line, exit 1; a good one gets as far as the terminal check', async (t) => {
  const refused = await runMock(['tui', '--admin-url', admin, '--token', 'not-a-token']);
  t.equal(refused.code, 1);
  t.match(refused.stderr, /^mock tui: the admin API at http:\/\/127\.0\.0\.1:\d+ refused the token: .+; pass the access_token of POST \/__mock\/auth\/login as --token \(or MOCK_ADMIN_TOKEN\)\n$/);
  const noTerminal = await runMock(['tui', '--admin-url', admin], { env: { MOCK_ADMIN_TOKEN: token } });
  t.equal(noTerminal.code, 1);
  t.equal(noTerminal.stderr, 'mock tui: needs an interactive terminal (stdin and stdout a TTY): run it in a terminal, not through a pipe or a file\n');
});
