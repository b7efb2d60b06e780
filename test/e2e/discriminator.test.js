// Request validation honours `discriminator`: a oneOf whose branches overlap in shape accepts a
// body for one branch (chosen by the tag, mapped or implicit) instead of refusing it with "must
// match exactly one schema in oneOf", and refuses a body whose tag names no branch.
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startMock, tmpdir } from '../helpers/cli.js';

const pet = (kind) => ({ type: 'object', required: ['petType', 'name'], properties: { petType: { type: 'string' }, name: { type: 'string' }, [kind]: { type: 'boolean' } } });
const description = {
  openapi: '3.0.3',
  info: { title: 'pets', version: '1' },
  components: { schemas: { Cat: pet('purrs'), Dog: pet('barks'), Lizard: pet('basks') } },
  paths: {
    '/mapped': {
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }], discriminator: { propertyName: 'petType', mapping: { cat: '#/components/schemas/Cat', kitten: '#/components/schemas/Cat', dog: 'Dog' } } } } } },
        responses: { 204: { description: 'ok' } },
      },
    },
    '/implicit': {
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Lizard' }], discriminator: { propertyName: 'petType' } } } } },
        responses: { 204: { description: 'ok' } },
      },
    },
    '/plain': {
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] } } } },
        responses: { 204: { description: 'ok' } },
      },
    },
  },
};

const dir = tmpdir();
writeFileSync(path.join(dir, 'pets.json'), JSON.stringify(description));
const server = await startMock(['--spec', path.join(dir, 'pets.json'), '--out', path.join(dir, 'out')]);
t.teardown(() => server.stop());
const post = (target, body) => fetch(server.url + target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A 400 problem whose detail (the first issue, what a user reads) is `detail`. */
async function refused(t, response, detail, what) {
  t.equal(response.status, 400, `${what}: 400`);
  t.match(response.headers.get('content-type'), /^application\/problem\+json/);
  const body = await response.json();
  t.equal(body.code, 'MOCK_ERR_REQUEST_INVALID', `${what}: the request-validation problem`);
  t.equal(body.detail, detail, `${what}: the detail names the input`);
}

t.test('the discriminator picks the branch', async (t) => {
  t.equal((await post('/mapped', { petType: 'cat', name: 'Tom' })).status, 204, 'mapped value');
  t.equal((await post('/mapped', { petType: 'kitten', name: 'Tom', purrs: true })).status, 204, 'a second value mapped to the same branch');
  t.equal((await post('/mapped', { petType: 'dog', name: 'Rex' })).status, 204, 'a mapping value written as a bare name');
  t.equal((await post('/implicit', { petType: 'Lizard', name: 'Liz' })).status, 204, 'implicit mapping: the schema name');
  // every value the union takes, not only those of the branch that happened to report first
  await refused(t, await post('/mapped', { petType: 'fish', name: 'Nemo' }), 'body /petType must be one of "cat", "kitten", "dog"', 'a tag naming no branch');
  await refused(t, await post('/implicit', { petType: 'Dog', name: 'Rex' }), 'body /petType must be one of "Cat", "Lizard"', 'implicit mapping: a schema name outside the union');
  await refused(t, await post('/mapped', { name: 'Tom' }), "body must have required property 'petType'", 'no tag');
  await refused(t, await post('/mapped', { petType: 'cat', name: 7 }), 'body /name must be string', "the chosen branch's schema still applies");
});

t.test('without a discriminator, overlapping oneOf branches stay ambiguous (what JSON Schema says)', async (t) => {
  await refused(t, await post('/plain', { petType: 'cat', name: 'Tom' }), 'body must match exactly one schema in oneOf', 'both branches match');
});
