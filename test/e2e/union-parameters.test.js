// A query parameter whose schema is a oneOf of a string and an array, as GitHub's REST description
// writes `has` on its Dependabot alert lists (organisation, enterprise and repository): decoded as
// each alternative in turn, the way validation tries them, so `has=patch,deployment` and any plain
// string are accepted instead of read as a one-item array and refused "must be string".
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMock, tmpdir } from '../helpers/cli.js';

// GitHub's components.parameters, as @octokit/openapi ships them (api.github.com.json, OpenAPI 3.0.3)
const has = (names) => ({ name: 'has', in: 'query', schema: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string', enum: names } }] } });
const state = { name: 'state', in: 'query', schema: { type: 'string' } };
const perPage = { name: 'per_page', in: 'query', schema: { type: 'integer', default: 30 } };
const alerts = (parameters) => ({ get: { parameters, responses: { 200: { description: 'Response', content: { 'application/json': { example: [] } } } } } });
const path1 = (name) => ({ name, in: 'path', required: true, schema: { type: 'string' } });

const description = {
  openapi: '3.0.3',
  info: { title: 'GitHub v3 REST API (Dependabot alerts)', version: '1.1.4' },
  paths: {
    '/orgs/{org}/dependabot/alerts': alerts([path1('org'), has(['patch', 'deployment']), state, perPage]),
    '/enterprises/{enterprise}/dependabot/alerts': alerts([path1('enterprise'), has(['patch']), state, perPage]),
    '/repos/{owner}/{repo}/dependabot/alerts': alerts([path1('owner'), path1('repo'), has(['patch']), state, perPage]),
  },
};

const dir = tmpdir();
writeFileSync(path.join(dir, 'github.json'), JSON.stringify(description));
const server = await startMock(['--spec', path.join(dir, 'github.json'), '--out', path.join(dir, 'out')]);
t.teardown(() => server.stop());

async function get(target) {
  const res = await fetch(server.url + target);
  return { status: res.status, body: await res.text() };
}

for (const base of ['/orgs/octo-org/dependabot/alerts', '/enterprises/octo-enterprise/dependabot/alerts', '/repos/octocat/hello-world/dependabot/alerts']) {
  t.test(base, async (t) => {
    for (const query of ['has=patch', 'has=patch,deployment', 'has=patch&has=patch', 'has=anything', 'has=patch,deployment&state=open&per_page=5']) {
      const res = await get(`${base}?${query}`);
      t.equal(res.status, 200, `${query}: ${res.body.slice(0, 200)}`);
    }
  });
}

t.test('two values of has are an array: names outside its enum are refused', async (t) => {
  const res = await get('/orgs/octo-org/dependabot/alerts?has=patch&has=nothing');
  t.equal(res.status, 400, 'two values are an array: the string alternative cannot take them');
  t.match(JSON.parse(res.body).errors[0], { location: 'query', name: 'has' });
});

t.test("another parameter's error is reported alone, not the alternatives tried for has", async (t) => {
  const res = await get('/orgs/octo-org/dependabot/alerts?has=anything&per_page=many');
  t.equal(res.status, 400);
  const body = JSON.parse(res.body);
  t.match(body.errors, [{ location: 'query', name: 'per_page' }]);
  t.equal(body.detail, "query parameter 'per_page' must be integer");
});
