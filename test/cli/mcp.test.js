// `mock mcp` as an agent runs it: the MCP SDK's own Client over stdio (StdioClientTransport starts
// `node bin/run.js mcp`), against one real `mock serve --admin` with admin auth on. Each tool is
// called and its effect checked over plain HTTP on the mock and admin ports: a created mock answers,
// a deleted one no longer does, the log holds a request made, the unmatched list a 404 with its
// closest routes, a chaos profile shows in /__mock/chaos/config. A viewer's token cannot create a
// mock through MCP (the admin's 403 is the tool's error). Then the failures: an admin nobody
// answers (the server starts, each call names the URL and the fix), a bad --admin-url (one line).
import t from 'tap';
import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bin, root, runCli, startMock, tmpdir } from '../helpers/cli.js';
import { plainNode } from '../helpers/plain-node.js';

const petstore = path.join(root, 'examples', 'petstore.yaml');
// admin auth on with the development users (admin, editor, viewer); the MCP clients get their tokens from flags only
const env = {
  MOCK_ADMIN_AUTH_ENABLED: 'true',
  JWT_SECRET: undefined,
  MOCK_DISABLE_DEV_SEED_USERS: undefined,
  MOCK_MANAGEMENT_TOKEN: undefined,
  MOCK_ADMIN_TOKEN: undefined,
  MOCK_ADMIN_URL: undefined,
};
const server = await startMock(['--spec', petstore, '--out', path.join(tmpdir(), 'out'), '--admin', '--admin-port', '0'], { env });
t.teardown(() => server.stop());
const admin = server.adminUrl;
const mockUrl = server.url;

async function login(username) {
  const res = await fetch(`${admin}/__mock/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({ username, password: `${username}-dev-password` }),
  });
  return (await res.json()).data.access_token;
}
const adminToken = await login('admin');
const editorToken = await login('editor');
const viewerToken = await login('viewer');

async function adminGet(endpoint) {
  const res = await fetch(`${admin}/__mock/api/${endpoint}`, { headers: { authorization: `Bearer ${adminToken}`, connection: 'close' } });
  return (await res.json()).data;
}

/** The environment of `mock mcp`: this one without any MOCK_ variable (the flags say everything). */
const mcpEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MOCK_')));

/** An MCP client connected to `mock mcp <args>` over stdio; `stderr` collects what the server logs. */
async function connect(t, args) {
  const [command, commandArgs] = plainNode([bin, 'mcp', ...args], mcpEnv);
  const transport = new StdioClientTransport({ command, args: commandArgs, env: mcpEnv, stderr: 'pipe', cwd: root });
  const session = { stderr: '', errors: [] };
  transport.stderr.on('data', (d) => (session.stderr += d));
  // a line on stdout that is not JSON-RPC would show here
  transport.onerror = (e) => session.errors.push(e.message);
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(transport);
  t.teardown(() => client.close());
  session.client = client;
  session.call = (name, args = {}) => client.callTool({ name, arguments: args });
  return session;
}

const text = (result) => result.content.map((c) => c.text).join('\n');
const json = (result) => JSON.parse(text(result));

t.test('every tool through the admin API of a running server, checked over HTTP', async (t) => {
  const mcp = await connect(t, ['--admin-url', admin, '--token', adminToken]);

  const { tools } = await mcp.client.listTools();
  const names = tools.map((tool) => tool.name).sort();
  t.same(names, [
    'apply_chaos_profile',
    'create_mock',
    'delete_mock',
    'get_contract_diff_statistics',
    'get_request_log',
    'get_unmatched_requests',
    'list_chaos_profiles',
    'list_mocks',
    'list_routes',
    'reset_chaos',
  ]);
  for (const tool of tools) t.ok(tool.description.length > 40, `${tool.name} says what it does`);
  const create = tools.find((tool) => tool.name === 'create_mock');
  t.same(create.inputSchema.required.sort(), ['method', 'path'], 'create_mock asks for a method and a path (JSON Schema)');
  t.equal(create.inputSchema.properties.status_code.type, 'integer');
  const logSchema = tools.find((tool) => tool.name === 'get_request_log').inputSchema;
  t.equal(logSchema.properties.limit.default, 50, 'the log comes 50 entries at a time unless asked');
  t.ok(logSchema.properties.source.enum.includes('runtime_mock'), 'sources are the answer sources');

  const routes = await mcp.call('list_routes');
  t.notOk(routes.isError, text(routes));
  t.ok(
    json(routes).some((r) => r.method === 'GET' && /\/pets$/.test(r.path)),
    'the routes of the description',
  );
  t.ok(Array.isArray(routes.structuredContent.routes), 'and as structured content');

  // create: the mock port answers it
  const created = await mcp.call('create_mock', { method: 'GET', path: '/mcp-made/{id}', status_code: 201, body: { made: 'by mcp' }, headers: { 'x-made-by': 'mcp' } });
  t.notOk(created.isError, text(created));
  const { id } = json(created);
  t.equal(created.structuredContent.id, id, 'the stored mock, structured');
  let res = await fetch(`${mockUrl}/mcp-made/7`, { headers: { connection: 'close' } });
  t.equal(res.status, 201, 'the created mock answers on the mock port');
  t.same(await res.json(), { made: 'by mcp' });
  t.equal(res.headers.get('x-made-by'), 'mcp');
  t.ok(
    json(await mcp.call('list_mocks')).some((m) => m.id === id),
    'list_mocks shows it',
  );

  // the request log holds that request
  const log = await mcp.call('get_request_log', { path: '/mcp-made/*', limit: 5 });
  t.notOk(log.isError, text(log));
  t.ok(
    json(log).some((entry) => entry.path === '/mcp-made/7' && entry.status_code === 201 && entry.source === 'runtime_mock'),
    'the log shows the request made',
  );

  const bySource = json(await mcp.call('get_request_log', { source: 'runtime_mock' }));
  t.ok(bySource.length > 0 && bySource.every((entry) => entry.source === 'runtime_mock'), 'filtered by source');

  // delete: the path no longer answers with the mock
  const deleted = await mcp.call('delete_mock', { id });
  t.notOk(deleted.isError, text(deleted));
  res = await fetch(`${mockUrl}/mcp-made/7`, { headers: { connection: 'close' } });
  t.equal(res.status, 404, 'the deleted mock no longer answers');
  await res.arrayBuffer();
  const again = await mcp.call('delete_mock', { id });
  t.ok(again.isError, 'deleting it twice is an error');
  t.match(text(again), /^DELETE \/__mock\/api\/mocks\/\S+: HTTP 404: no mock with id/);

  // unmatched: a near miss of /v1/pets with its closest routes
  res = await fetch(`${mockUrl}/v1/petz`, { headers: { connection: 'close' } });
  t.equal(res.status, 404);
  await res.arrayBuffer();
  const unmatched = await mcp.call('get_unmatched_requests', { limit: 10 });
  t.notOk(unmatched.isError, text(unmatched));
  const miss = json(unmatched).find((u) => u.entry.path === '/v1/petz');
  t.ok(miss, 'the 404 is listed');
  t.ok(
    miss.closest.some((c) => /\/pets/.test(c.path ?? c.route?.path ?? JSON.stringify(c))),
    'with /pets among its closest routes',
  );
  const unmatchedLog = json(await mcp.call('get_request_log', { unmatched: true }));
  t.ok(
    unmatchedLog.some((entry) => entry.path === '/v1/petz'),
    'the log filtered to unmatched requests has it too',
  );

  // chaos: a profile applied shows in the admin's chaos config, and reset takes it away
  const profiles = json(await mcp.call('list_chaos_profiles'));
  t.ok(
    profiles.some((p) => p.name === 'slow_3g'),
    'the built-in profiles',
  );
  const applied = await mcp.call('apply_chaos_profile', { name: 'slow_3g' });
  t.notOk(applied.isError, text(applied));
  t.equal((await adminGet('chaos/config')).active_profile, 'slow_3g', 'the admin reports the profile applied');
  const reset = await mcp.call('reset_chaos');
  t.notOk(reset.isError, text(reset));
  t.not((await adminGet('chaos/config')).active_profile, 'slow_3g', 'and reset takes it off');
  const unknown = await mcp.call('apply_chaos_profile', { name: 'no-such-profile' });
  t.ok(unknown.isError);
  t.match(text(unknown), /^POST \/__mock\/api\/chaos\/profiles\/no-such-profile\/apply: HTTP 404/);

  // contract-diff statistics, as the admin answers them
  const stats = await mcp.call('get_contract_diff_statistics');
  t.notOk(stats.isError, text(stats));
  t.same(json(stats), await adminGet('contract-diff/statistics'));
  t.equal(typeof stats.structuredContent.captures, 'number');

  // bad input never reaches the admin
  const bad = await mcp.call('create_mock', { method: 'FETCH', path: 'no-slash' });
  t.ok(bad.isError, 'arguments outside the input schema are an error');
  t.match(text(bad), /Invalid arguments for tool create_mock/);

  t.same(mcp.errors, [], 'stdout carried nothing but the protocol');
  t.match(mcp.stderr, `serving MCP on stdio for the admin API at ${admin}`, 'messages go to stderr');
});

t.test('roles: a viewer token cannot create a mock through MCP, an editor cannot apply chaos; the admin refuses, the tool says why', async (t) => {
  const mcp = await connect(t, ['--admin-url', admin, '--token', viewerToken]);
  const before = (await adminGet('mocks')).length;
  const refused = await mcp.call('create_mock', { method: 'GET', path: '/viewer-made' });
  t.ok(refused.isError);
  t.match(text(refused), /^POST \/__mock\/api\/mocks: HTTP 403: role viewer may not POST mocks \(needs editor or admin\)/);
  t.equal((await adminGet('mocks')).length, before, 'no mock was created');
  const res = await fetch(`${mockUrl}/viewer-made`, { headers: { connection: 'close' } });
  t.equal(res.status, 404);
  await res.arrayBuffer();
  const chaos = await mcp.call('apply_chaos_profile', { name: 'slow_3g' });
  t.ok(chaos.isError, 'nor apply a chaos profile');
  t.match(text(chaos), /HTTP 403: role viewer may not/);
  const routes = await mcp.call('list_routes');
  t.notOk(routes.isError, 'reads stay open to it');

  // an editor may create mocks but not apply chaos (the admin role): the same token, the same answers as the admin API gives it
  const editor = await connect(t, ['--admin-url', admin, '--token', editorToken]);
  const made = await editor.call('create_mock', { method: 'GET', path: '/editor-made', body: 'by an editor' });
  t.notOk(made.isError, text(made));
  const answer = await fetch(`${mockUrl}/editor-made`, { headers: { connection: 'close' } });
  t.equal(await answer.text(), 'by an editor', 'an editor creates a mock');
  t.notOk((await editor.call('delete_mock', { id: json(made).id })).isError, 'and deletes it');
  t.match(
    text(await editor.call('apply_chaos_profile', { name: 'slow_3g' })),
    /^POST \/__mock\/api\/chaos\/profiles\/slow_3g\/apply: HTTP 403: role editor may not POST chaos\/profiles\/slow_3g\/apply \(needs admin\)/,
  );

  const anonymous = await connect(t, ['--admin-url', admin]);
  const noToken = await anonymous.call('create_mock', { method: 'GET', path: '/anonymous' });
  t.ok(noToken.isError, 'without a token: refused');
  t.match(text(noToken), /^POST \/__mock\/api\/mocks: HTTP 401: .*--token/);

  const forged = await connect(t, ['--admin-url', admin, '--token', 'not-a-token-the-admin-issued']);
  const bad = await forged.call('delete_mock', { id: 'any' });
  t.ok(bad.isError, 'a token the admin did not issue: refused');
  t.match(text(bad), /^DELETE \/__mock\/api\/mocks\/any: HTTP 401: .*\(restart mock mcp with a fresh --token/);
});

t.test('an admin nobody answers: mock mcp starts, and each call names the URL and the fix', async (t) => {
  // a port just freed: nothing listens there
  const port = await new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const mcp = await connect(t, ['--admin-url', url]);
  t.equal((await mcp.client.listTools()).tools.length, 10, 'the tools are listed all the same');
  const result = await mcp.call('list_routes');
  t.ok(result.isError);
  t.match(text(result), `cannot reach the admin API at ${url} (ECONNREFUSED): start it with mock serve --admin, or pass --admin-url`);
  t.match(mcp.stderr, `mock mcp: cannot reach the admin API at ${url}`, 'a warning on stderr at start');
  t.same(mcp.errors, []);
});

t.test('stdout is the protocol alone: every line of a raw session is JSON-RPC', async (t) => {
  const [command, args] = plainNode([bin, 'mcp', '--admin-url', admin], mcpEnv);
  const child = spawn(command, args, { env: mcpEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  child.stdin.write(`${JSON.stringify(initialize)}\n`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
  const deadline = Date.now() + 30_000;
  while (!stdout.includes('"id":2') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  child.stdin.end();
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.equal(code, 0, 'stdin closed: it exits with 0');
  const lines = stdout.split('\n').filter((line) => line !== '');
  t.equal(lines.length, 2, 'two answers');
  for (const line of lines) t.equal(JSON.parse(line).jsonrpc, '2.0', line.slice(0, 80));
  t.equal(JSON.parse(lines[0]).result.serverInfo.name, 'mock');
});

t.test('a bad flag is one line and a non-zero exit', async (t) => {
  const notUrl = await runCli(['mcp', '--admin-url', 'localhost:9080']);
  t.not(notUrl.code, 0);
  t.equal(notUrl.stdout, '');
  t.equal(notUrl.stderr, '--admin-url: "localhost:9080" is not an http(s) URL; give the admin API\'s base URL, e.g. --admin-url http://127.0.0.1:9080\n');
  const typo = await runCli(['mcp', '--admin-urll', admin]);
  t.equal(typo.code, 2);
  t.match(typo.stderr, /^mock: Nonexistent flag: --admin-urll; did you mean --admin-url\? \(see mock mcp --help\)\n$/);
});
