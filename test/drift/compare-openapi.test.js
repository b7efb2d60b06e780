// mock contract-diff compare on OpenAPI: pairs of descriptions built from the corpus petstore by
// editing it, each change classified with its check id, side and severity (issue 39, item 4).
// In-process, through what the command runs (compareDescriptions, then its JSON report), as
// compare-graphql.test.js does: some fifty pairs were as many CLI starts, most of this file's time;
// compare-cli.test.js runs the command itself (OpenAPI JSON, text and Markdown output, --fail-on).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { parse, stringify } from 'yaml';
import { compareDescriptions, formatReport } from '../../dist/src/drift/compare/index.js';
import { corpus } from '../helpers/cli.js';

const petstore = parse(readFileSync(path.join(corpus, 'openapi', 'oai-v3.0-petstore.yaml'), 'utf8'));

/** Writes the petstore (or `base`) as old.yaml and an edited copy as new.yaml; answers the compare's changes as `id location` lines and the run. */
async function compare(t, edit, { base = petstore, editOld } = {}) {
  const dir = t.testdir({});
  const old = structuredClone(base);
  editOld?.(old);
  const next = structuredClone(old);
  edit(next);
  writeFileSync(path.join(dir, 'old.yaml'), stringify(old));
  writeFileSync(path.join(dir, 'new.yaml'), stringify(next));
  const [oldSpec, newSpec] = [path.join(dir, 'old.yaml'), path.join(dir, 'new.yaml')];
  const result = await compareDescriptions(oldSpec, newSpec);
  t.equal(result.kind, 'openapi');
  const report = JSON.parse(formatReport({ oldSpec, newSpec, ...result }, 'json'));
  return report.changes.map((change) => `${change.severity} ${change.id} ${change.location}`);
}

const schemas = (doc) => doc.components.schemas;
const listPets = (doc) => doc.paths['/pets'].get;
const createPets = (doc) => doc.paths['/pets'].post;
const showPet = (doc) => doc.paths['/pets/{petId}'].get;

t.test('removed paths, operations, parameters and statuses', async (t) => {
  t.same(await compare(t, () => {}), [], 'the same description: no changes');
  t.same(await compare(t, (doc) => delete doc.paths['/pets/{petId}']), ['error path-removed /pets/{petId} #/paths/~1pets~1{petId}']);
  t.same(await compare(t, (doc) => delete doc.paths['/pets'].post), ['error operation-removed POST /pets #/paths/~1pets/post']);
  t.same(await compare(t, (doc) => (listPets(doc).parameters = [])), ['warning request-parameter-removed GET /pets #/paths/~1pets/get/parameters/0']);
  t.same(await compare(t, (doc) => delete createPets(doc).responses['201']), ['error response-status-removed POST /pets #/paths/~1pets/post/responses/201']);
  t.same(await compare(t, (doc) => (createPets(doc).responses['409'] = { description: 'taken' })), ['info response-status-added POST /pets #/paths/~1pets/post/responses/409']);
});

t.test('added parameters: required without a default is breaking, with a default or optional it is safe', async (t) => {
  const add = (parameter) => (doc) => listPets(doc).parameters.push({ name: 'species', in: 'query', ...parameter });
  t.same(await compare(t, add({ required: true, schema: { type: 'string' } })), ['error request-parameter-added-required GET /pets #/paths/~1pets/get/parameters/1']);
  t.same(await compare(t, add({ required: true, schema: { type: 'string', default: 'dog' } })), ['info request-parameter-added GET /pets #/paths/~1pets/get/parameters/1']);
  t.same(await compare(t, add({ schema: { type: 'string' } })), ['info request-parameter-added GET /pets #/paths/~1pets/get/parameters/1']);
  t.same(await compare(t, (doc) => (listPets(doc).parameters[0].required = true)), ['error request-parameter-became-required GET /pets #/paths/~1pets/get/parameters/0']);
});

t.test('a property of a shared schema: request and response sides told apart', async (t) => {
  // Pet is the body of POST /pets and the answer of GET /pets/{petId} (and, in an array, of GET /pets)
  t.same((await compare(t, (doc) => delete schemas(doc).Pet.properties.tag)).sort(), [
    'error response-property-removed GET /pets #/components/schemas/Pet/properties/tag',
    'error response-property-removed GET /pets/{petId} #/components/schemas/Pet/properties/tag',
    'warning request-property-removed POST /pets #/components/schemas/Pet/properties/tag',
  ]);
  const owner = (extra) => (doc) => {
    schemas(doc).Pet.properties.owner = { type: 'string', ...extra };
    schemas(doc).Pet.required.push('owner');
  };
  t.same((await compare(t, owner({}))).sort(), [
    'error request-property-added-required POST /pets #/components/schemas/Pet/properties/owner',
    'info response-property-added GET /pets #/components/schemas/Pet/properties/owner',
    'info response-property-added GET /pets/{petId} #/components/schemas/Pet/properties/owner',
  ]);
  t.same((await compare(t, (doc) => (schemas(doc).Pet.required = ['id']))).sort(), [
    'info request-property-became-optional POST /pets #/components/schemas/Pet/properties/name',
    'warning response-property-became-optional GET /pets #/components/schemas/Pet/properties/name',
    'warning response-property-became-optional GET /pets/{petId} #/components/schemas/Pet/properties/name',
  ]);
});

t.test('oasdiff #549: a new required request property with a default is safe', async (t) => {
  const changes = await compare(t, (doc) => {
    schemas(doc).Pet.properties.owner = { type: 'string', default: 'nobody' };
    schemas(doc).Pet.required.push('owner');
  });
  t.ok(changes.includes('info request-property-added POST /pets #/components/schemas/Pet/properties/owner'), changes.join('\n'));
  t.notOk(
    changes.some((line) => line.startsWith('error')),
    'nothing breaking',
  );
});

t.test('type and format changes in both directions', async (t) => {
  const id = (change) => (doc) => Object.assign(schemas(doc).Pet.properties.id, change);
  t.same((await compare(t, id({ type: 'string', format: undefined }))).filter((line) => line.includes('type')).sort(), [
    'error request-type-changed POST /pets #/components/schemas/Pet/properties/id',
    'error response-type-changed GET /pets #/components/schemas/Pet/properties/id',
    'error response-type-changed GET /pets/{petId} #/components/schemas/Pet/properties/id',
  ]);
  // integer → number accepts more: safe for a request, a surprise in an answer
  t.same((await compare(t, (doc) => (schemas(doc).Pet.properties.id.type = 'number'))).sort(), [
    'error response-type-changed GET /pets #/components/schemas/Pet/properties/id',
    'error response-type-changed GET /pets/{petId} #/components/schemas/Pet/properties/id',
    'info request-type-widened POST /pets #/components/schemas/Pet/properties/id',
  ]);
  t.same((await compare(t, (doc) => (schemas(doc).Pet.properties.id.type = 'integer'), { editOld: (doc) => (schemas(doc).Pet.properties.id.type = 'number') })).sort(), [
    'error request-type-changed POST /pets #/components/schemas/Pet/properties/id',
    'info response-type-narrowed GET /pets #/components/schemas/Pet/properties/id',
    'info response-type-narrowed GET /pets/{petId} #/components/schemas/Pet/properties/id',
  ]);
  t.same((await compare(t, (doc) => (schemas(doc).Pet.properties.id.format = 'int32'))).sort(), [
    'error request-format-changed POST /pets #/components/schemas/Pet/properties/id',
    'error response-format-changed GET /pets #/components/schemas/Pet/properties/id',
    'error response-format-changed GET /pets/{petId} #/components/schemas/Pet/properties/id',
  ]);
  t.same((await compare(t, (doc) => delete schemas(doc).Pet.properties.id.format)).sort(), [
    'info request-format-removed POST /pets #/components/schemas/Pet/properties/id',
    'warning response-format-removed GET /pets #/components/schemas/Pet/properties/id',
    'warning response-format-removed GET /pets/{petId} #/components/schemas/Pet/properties/id',
  ]);
});

t.test('enum changes: narrowing a request enum is breaking, widening it safe; for answers the reverse', async (t) => {
  const withEnum = (values) => (doc) => (schemas(doc).Pet.properties.tag.enum = values);
  const oldEnum = { editOld: withEnum(['dog', 'cat']) };
  t.same((await compare(t, withEnum(['dog']), oldEnum)).sort(), [
    'error request-enum-value-removed POST /pets #/components/schemas/Pet/properties/tag',
    'info response-enum-value-removed GET /pets #/components/schemas/Pet/properties/tag',
    'info response-enum-value-removed GET /pets/{petId} #/components/schemas/Pet/properties/tag',
  ]);
  t.same((await compare(t, withEnum(['dog', 'cat', 'bird']), oldEnum)).sort(), [
    'info request-enum-value-added POST /pets #/components/schemas/Pet/properties/tag',
    'warning response-enum-value-added GET /pets #/components/schemas/Pet/properties/tag',
    'warning response-enum-value-added GET /pets/{petId} #/components/schemas/Pet/properties/tag',
  ]);
});

t.test('constraint changes in both directions', async (t) => {
  const limit = (maximum) => (doc) => (listPets(doc).parameters[0].schema.maximum = maximum);
  t.same(await compare(t, limit(50)), ['error request-constraint-narrowed GET /pets #/paths/~1pets/get/parameters/0/schema']);
  t.same(await compare(t, limit(500)), ['info request-constraint-widened GET /pets #/paths/~1pets/get/parameters/0/schema']);
  // Pets (maxItems 100) is only answered
  t.same(await compare(t, (doc) => (schemas(doc).Pets.maxItems = 500)), ['warning response-constraint-widened GET /pets #/components/schemas/Pets']);
  t.same(await compare(t, (doc) => (schemas(doc).Pets.maxItems = 10)), ['info response-constraint-narrowed GET /pets #/components/schemas/Pets']);
  t.same(
    (await compare(t, (doc) => (schemas(doc).Pet.properties.name.pattern = '^[a-z]+$'))).filter((line) => line.includes('POST')),
    ['error request-constraint-narrowed POST /pets #/components/schemas/Pet/properties/name'],
  );
});

/** The petstore with Pet as a oneOf of Cat and Dog. */
function withBranches(doc) {
  const { Pet } = schemas(doc);
  schemas(doc).Cat = { ...structuredClone(Pet), properties: { ...structuredClone(Pet.properties), purrs: { type: 'boolean' } } };
  schemas(doc).Dog = { ...structuredClone(Pet), properties: { ...structuredClone(Pet.properties), barks: { type: 'boolean' } } };
  schemas(doc).Pet = { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] };
}

t.test('oasdiff #314, #610: oneOf/anyOf/allOf branch changes, and changes inside a branch', async (t) => {
  const branches = { editOld: withBranches };
  const bird = (doc) => {
    schemas(doc).Bird = { type: 'object', properties: { wings: { type: 'integer' } } };
    schemas(doc).Pet.oneOf.push({ $ref: '#/components/schemas/Bird' });
  };
  t.same((await compare(t, bird, branches)).sort(), [
    'info request-oneof-branch-added POST /pets #/components/schemas/Pet/oneOf/2',
    'warning response-oneof-branch-added GET /pets #/components/schemas/Pet/oneOf/2',
    'warning response-oneof-branch-added GET /pets/{petId} #/components/schemas/Pet/oneOf/2',
  ]);
  t.same((await compare(t, (doc) => schemas(doc).Pet.oneOf.pop(), branches)).sort(), [
    'error request-oneof-branch-removed POST /pets #/components/schemas/Pet/oneOf/1',
    'info response-oneof-branch-removed GET /pets #/components/schemas/Pet/oneOf/1',
    'info response-oneof-branch-removed GET /pets/{petId} #/components/schemas/Pet/oneOf/1',
  ]);
  t.same(
    (await compare(t, (doc) => (schemas(doc).Dog.properties.barks.type = 'string'), branches)).sort(),
    [
      'error request-type-changed POST /pets #/components/schemas/Dog/properties/barks',
      'error response-type-changed GET /pets #/components/schemas/Dog/properties/barks',
      'error response-type-changed GET /pets/{petId} #/components/schemas/Dog/properties/barks',
    ],
    'a change inside a branch is found',
  );
  const anyOf = { editOld: (doc) => (withBranches(doc), (schemas(doc).Pet = { anyOf: schemas(doc).Pet.oneOf })) };
  t.same(
    (await compare(t, (doc) => schemas(doc).Pet.anyOf.shift(), anyOf)).filter((line) => line.includes('POST')),
    ['error request-anyof-branch-removed POST /pets #/components/schemas/Pet/anyOf/0'],
  );
  // allOf: one more schema to satisfy is breaking for a request; one less in an answer is breaking too
  const allOf = { editOld: (doc) => (schemas(doc).Pet = { allOf: [{ $ref: '#/components/schemas/Error' }] }) };
  t.same(
    (await compare(t, (doc) => schemas(doc).Pet.allOf.push({ type: 'object', properties: { x: { type: 'string' } } }), allOf)).filter((line) => line.includes('POST')),
    ['error request-allof-branch-added POST /pets #/components/schemas/Pet/allOf/1'],
  );
  t.same(
    (await compare(t, (doc) => (schemas(doc).Pet.allOf = []), allOf)).filter((line) => line.includes('GET /pets/')),
    ['error response-allof-branch-removed GET /pets/{petId} #/components/schemas/Pet/allOf/0'],
  );
});

t.test('oasdiff #929, #930: an inline schema that becomes a $ref, or back, is no change', async (t) => {
  const inline = (doc) => {
    const pet = () => structuredClone(schemas(doc).Pet);
    createPets(doc).requestBody.content['application/json'].schema = pet();
    showPet(doc).responses['200'].content['application/json'].schema = pet();
    schemas(doc).Pets.items = pet();
  };
  t.same(await compare(t, inline), [], '$ref → inline');
  t.same(await compare(t, (doc) => Object.assign(doc, structuredClone(petstore)), { editOld: inline }), [], 'inline → $ref');
  t.same(
    await compare(t, (doc) => {
      schemas(doc).Animal = schemas(doc).Pet;
      delete schemas(doc).Pet;
      const text = JSON.stringify(doc).replaceAll('#/components/schemas/Pet"', '#/components/schemas/Animal"');
      Object.assign(doc, JSON.parse(text));
    }),
    [],
    'a component renamed: same schemas',
  );
  // a real change behind the refactor is still found
  const changed = await compare(t, (doc) => {
    inline(doc);
    delete showPet(doc).responses['200'].content['application/json'].schema.properties.tag;
  });
  t.same(changed, ['error response-property-removed GET /pets/{petId} #/components/schemas/Pet/properties/tag'], 'a removal points into the old description');
});

t.test('oasdiff #608: a renamed path parameter is the same operation, reported as safe', async (t) => {
  const rename = (doc) => {
    doc.paths['/pets/{id}'] = doc.paths['/pets/{petId}'];
    delete doc.paths['/pets/{petId}'];
    showPet(Object.assign({}, doc, { paths: { '/pets/{petId}': doc.paths['/pets/{id}'] } })).parameters[0].name = 'id';
  };
  t.same(await compare(t, rename), ['info path-parameter-renamed /pets/{id} #/paths/~1pets~1{id}']);
  // one description may hold two paths of one template with different methods (GitHub's attestations): each is its own path
  const twoOfOneTemplate = {
    editOld: (doc) => (doc.paths['/pets/{name}'] = { delete: { parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }], responses: { 204: { description: 'gone' } } } }),
  };
  t.same(await compare(t, () => {}, twoOfOneTemplate), [], 'compared with itself: nothing');
  t.same(await compare(t, rename, twoOfOneTemplate), ['info path-parameter-renamed /pets/{id} #/paths/~1pets~1{id}']);
  const renamedAndNarrowed = await compare(t, (doc) => {
    rename(doc);
    doc.paths['/pets/{id}'].get.parameters[0].schema.maxLength = 10;
  });
  t.same(renamedAndNarrowed.sort(), ['error request-constraint-narrowed GET /pets/{id} #/paths/~1pets~1{id}/get/parameters/0/schema', 'info path-parameter-renamed /pets/{id} #/paths/~1pets~1{id}']);
});

t.test('security requirement changes', async (t) => {
  const secured = (doc) => {
    doc.components.securitySchemes = {
      key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      oauth: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://a.example/auth', scopes: { read: 'r', write: 'w' } } } },
    };
    doc.security = [{ key: [] }, { oauth: ['read'] }];
  };
  t.same((await compare(t, secured)).sort(), [
    'error security-added GET /pets #/paths/~1pets/get/security',
    'error security-added GET /pets/{petId} #/paths/~1pets~1{petId}/get/security',
    'error security-added POST /pets #/paths/~1pets/post/security',
  ]);
  const before = { editOld: secured };
  t.same(await compare(t, (doc) => (createPets(doc).security = [{ oauth: ['read'] }]), before), ['error security-requirement-removed POST /pets #/paths/~1pets/post/security']);
  t.same(await compare(t, (doc) => (createPets(doc).security = [{ key: [] }, { oauth: ['read', 'write'] }]), before), ['error security-scope-added POST /pets #/paths/~1pets/post/security']);
  t.same(await compare(t, (doc) => (createPets(doc).security = []), before), ['info security-removed POST /pets #/paths/~1pets/post/security']);
  t.same(await compare(t, (doc) => (createPets(doc).security = [{ key: [] }, { oauth: ['read'] }, { oauth: ['write'], key: [] }]), before), [
    'info security-requirement-added POST /pets #/paths/~1pets/post/security',
  ]);
});

t.test('Swagger 2.0 descriptions compare after conversion', async (t) => {
  const swagger = JSON.parse(readFileSync(path.join(corpus, 'openapi', 'oai-v2.0-petstore.json'), 'utf8'));
  const changes = await compare(
    t,
    (doc) => {
      doc.definitions.Pet.properties.name.type = 'integer';
      doc.paths['/pets'].get.parameters[0].type = 'string';
    },
    { base: swagger },
  );
  t.same(changes.sort(), [
    'error request-type-changed GET /pets #/paths/~1pets/get/parameters/0/schema',
    'error response-type-changed GET /pets #/components/schemas/Pet/properties/name',
    'error response-type-changed GET /pets/{petId} #/components/schemas/Pet/properties/name',
  ]);
});
