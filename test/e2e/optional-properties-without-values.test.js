// Generated bodies leave out optional properties whose schema admits no value (an enum of integers
// declared `type: string`; `additionalProperties: false` beside a oneOf no value satisfies; an
// object requiring such a property), so the body matches its own schema; `mock build` says which.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { root, runMock, startMock, tmpdir } from '../helpers/cli.js';

const schemas = {
  Thing: {
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      level: { type: 'string', enum: [1, 2, 3] },
      choice: { type: 'object', additionalProperties: false, oneOf: [{ required: ['a'] }, { required: ['b'] }] },
      same: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } }, oneOf: [{ properties: { a: { type: 'string' } } }, { properties: { a: { type: 'string', minLength: 0 } } }] },
      owner: { $ref: '#/components/schemas/Owner' },
    },
  },
  Owner: { type: 'object', required: ['rank'], properties: { rank: { type: 'string', enum: [1] } } },
};
const description = {
  openapi: '3.0.3',
  info: { title: 'unsatisfiable optional properties', version: '1' },
  paths: { '/things/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } } } } },
  components: { schemas },
};

const dir = tmpdir();
const spec = path.join(dir, 'api.json');
writeFileSync(spec, JSON.stringify(description));

t.test('mock build names each property it leaves out', async (t) => {
  const { code, stderr } = await runMock(['build', '--spec', spec, '--out', path.join(dir, 'checked')]);
  t.equal(code, 0, stderr);
  for (const key of ['level', 'choice', 'same', 'owner']) {
    t.match(stderr, `the optional property "${key}" of Thing is left out of generated responses: the generator finds no value its schema accepts`);
  }
  t.notMatch(stderr, 'do not match their schema', 'no generated answer breaks its schema any more');
});

t.test('mock serve answers bodies that match their schema', async (t) => {
  const server = await startMock(['--spec', spec, '--out', path.join(dir, 'out'), '--seed', '7']);
  t.teardown(() => server.stop());
  const ajv = new Ajv({ strict: false });
  ajv.addSchema({ $id: 'api', components: { schemas } });
  const validate = ajv.compile({ $ref: 'api#/components/schemas/Thing' });
  for (let i = 1; i <= 5; i++) {
    const res = await fetch(`${server.url}/things/${i}`);
    t.equal(res.status, 200);
    const body = await res.json();
    t.ok(validate(body), `${JSON.stringify(body)} ${JSON.stringify(validate.errors)}`);
    t.ok('name' in body, 'satisfiable optional properties are still generated');
    t.notOk('level' in body || 'choice' in body || 'same' in body || 'owner' in body, 'no property its schema cannot accept');
  }
});

// Jira's shapes (test/fixtures/openapi/jira-excerpt.json, unmodified): `additionalProperties: false`
// and no properties beside a anyOf/oneOf whose members all need properties admit no object, so
// JqlQuery.where, WorkflowRules.conditionsTree and the list PageBeanCustomFieldContextDefaultValue.values
// (whose items are such) are left out of the three operations' bodies, which then match their schemas.
const jira = path.join(root, 'test', 'fixtures', 'openapi', 'jira-excerpt.json');

t.test("Jira: the build names the three properties it leaves out, and no answer breaks its schema", async (t) => {
  const { code, stderr } = await runMock(['build', '--spec', jira, '--out', path.join(dir, 'jira-checked')]);
  t.equal(code, 0, stderr);
  for (const [key, owner] of [['where', 'JqlQuery'], ['conditionsTree', 'WorkflowRules'], ['values', 'PageBeanCustomFieldContextDefaultValue']]) {
    t.match(stderr, `the optional property "${key}" of ${owner} is left out of generated responses: the generator finds no value its schema accepts`);
  }
  t.notMatch(stderr, 'do not match their schema', 'JqlQueryClause, WorkflowCondition and CustomFieldContextDefaultValue no longer break their answers');
});

t.test('Jira: mock serve answers the three operations with bodies that match their schemas', async (t) => {
  const server = await startMock(['--spec', jira, '--out', path.join(dir, 'jira-out'), '--seed', '11', '--no-security']);
  t.teardown(() => server.stop());
  const document = JSON.parse(readFileSync(jira, 'utf8'));
  const ajv = new Ajv({ strict: false });
  ajv.addSchema({ $id: 'jira', components: document.components });
  const schemaOf = (method, p) => ajv.compile({ $ref: `jira#/components/schemas/${document.paths[p][method].responses[200].content['application/json'].schema.$ref.split('/').pop()}` });
  for (const [method, p, target, init, absent] of [
    ['post', '/rest/api/3/jql/parse', '/rest/api/3/jql/parse', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ queries: ['project = X'] }) }, (body) => body.queries.some((q) => q.structure !== undefined && 'where' in q.structure)],
    ['get', '/rest/api/3/workflow/search', '/rest/api/3/workflow/search?expand=transitions.rules', {}, (body) => JSON.stringify(body).includes('"conditionsTree"')],
    ['get', '/rest/api/3/field/{fieldId}/context/defaultValue', '/rest/api/3/field/customfield_1/context/defaultValue', {}, (body) => 'values' in body],
  ]) {
    const validate = schemaOf(method, p);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(server.url + target, init);
      t.equal(res.status, 200, target);
      const body = await res.json();
      t.ok(validate(body), `${target}: ${JSON.stringify(validate.errors)}`);
      t.notOk(absent(body), `${target}: the property no value satisfies is left out`);
    }
  }
});
