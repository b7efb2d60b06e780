// `mock data schema`: a standalone JSON Schema file (root or one definition), or one components/schemas
// entry of a description, generated with the server's generators; values validate against the schema.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { corpus } from '../helpers/cli.js';
import { errorsOf, expectedRow, parseCsv, runData, valuesOf } from './helpers.js';

const PERSON = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['id', 'email', 'tags', 'address', 'status'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 0, maximum: 120 },
    score: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
    tags: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: 4, uniqueItems: true },
    status: { enum: ['active', 'suspended'] },
    code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
    address: { $ref: '#/definitions/Address' },
    manager: { anyOf: [{ $ref: '#' }, { type: 'null' }] },
  },
  additionalProperties: false,
  definitions: {
    Address: {
      type: 'object',
      required: ['city', 'zip'],
      properties: { city: { type: 'string', minLength: 1 }, zip: { type: 'string', pattern: '^[0-9]{5}$' } },
      additionalProperties: false,
    },
  },
};

const ajv = new Ajv({ strict: false });
addFormats(ajv);
const validatePerson = ajv.compile(PERSON);
const validateAddress = ajv.compile({ ...PERSON.definitions.Address });

t.test('--schema: a JSON Schema file (JSON or YAML) gives valid values in json, yaml and csv', async (t) => {
  const dir = t.testdir({ 'person.json': JSON.stringify(PERSON), 'person.yaml': JSON.stringify(PERSON) });
  const args = ['schema', '--count', '50', '--seed', '5'];
  const [json, yaml, csv, fromYamlFile] = await Promise.all([
    runData([...args, '--schema', path.join(dir, 'person.json')]),
    runData([...args, '--schema', path.join(dir, 'person.json'), '--format', 'yaml']),
    runData([...args, '--schema', path.join(dir, 'person.json'), '--format', 'csv']),
    runData([...args, '--schema', path.join(dir, 'person.yaml')]),
  ]);
  for (const r of [json, yaml, csv, fromYamlFile]) t.equal(r.code, 0, r.stderr);
  const values = valuesOf(json.stdout, 'json', 50);
  t.equal(values.length, 50);
  t.same(values.filter((v) => !validatePerson(v)), [], errorsOf(validatePerson));
  t.same(parseYaml(yaml.stdout), values, 'the same values as YAML');
  t.equal(fromYamlFile.stdout, json.stdout, 'a YAML schema file is read the same');
  const { header, rows } = parseCsv(csv.stdout);
  t.equal(rows.length, 50);
  t.ok(header.includes('address.city') && header.includes('address.zip'), 'nested fields as dotted columns');
  const expected = values.map(expectedRow);
  t.same(rows, expected.map((row) => Object.fromEntries(header.map((c) => [c, row[c] ?? '']))), 'rows: the values flattened');
});

t.test('--schema --definition picks a definitions entry; --spec --definition a components/schemas entry', async (t) => {
  const dir = t.testdir({ 'person.json': JSON.stringify(PERSON) });
  const expanded = path.join(corpus, 'openapi', 'oai-v3.0-petstore-expanded.yaml');
  const swagger = path.join(corpus, 'openapi', 'oai-v2.0-petstore-expanded.yaml');
  const [address, pet, swaggerPet, schemaIsSpec] = await Promise.all([
    runData(['schema', '--schema', path.join(dir, 'person.json'), '--definition', 'Address', '--count', '20']),
    runData(['schema', '--spec', expanded, '--definition', 'Pet', '--count', '20']),
    runData(['schema', '--spec', swagger, '--definition', 'Pet', '--count', '5']),
    runData(['schema', '--schema', expanded, '--definition', 'NewPet', '--count', '5']),
  ]);
  for (const r of [address, pet, swaggerPet, schemaIsSpec]) t.equal(r.code, 0, r.stderr);
  const addresses = JSON.parse(address.stdout);
  t.same(addresses.filter((a) => !validateAddress(a)), [], errorsOf(validateAddress));

  // Pet of petstore-expanded: allOf NewPet (name required, tag) + {id: integer int64, required}
  const pets = JSON.parse(pet.stdout);
  t.equal(pets.length, 20);
  t.ok(pets.every((p) => typeof p.name === 'string' && Number.isInteger(p.id)), 'allOf of NewPet and the id part');
  t.ok(JSON.parse(swaggerPet.stdout).every((p) => typeof p.name === 'string' && Number.isInteger(p.id)), 'Swagger 2.0 definitions');
  t.ok(JSON.parse(schemaIsSpec.stdout).every((p) => typeof p.name === 'string'), 'a description passed as --schema works like --spec');
});

t.test('--mode request leaves readOnly properties out, response writeOnly ones', async (t) => {
  const schema = {
    type: 'object',
    required: ['id', 'password', 'name'],
    properties: { id: { type: 'integer', readOnly: true }, password: { type: 'string', writeOnly: true }, name: { type: 'string' } },
  };
  const dir = t.testdir({ 'user.json': JSON.stringify(schema) });
  const [response, request] = await Promise.all([
    runData(['schema', '--schema', path.join(dir, 'user.json'), '--count', '10']),
    runData(['schema', '--schema', path.join(dir, 'user.json'), '--count', '10', '--mode', 'request']),
  ]);
  t.ok(JSON.parse(response.stdout).every((u) => 'id' in u && !('password' in u)), 'responses: id, no password');
  t.ok(JSON.parse(request.stdout).every((u) => !('id' in u) && 'password' in u), 'requests: password, no id');
});

t.test('--seed repeats, --output writes', async (t) => {
  const dir = t.testdir({ 'person.json': JSON.stringify(PERSON) });
  const schema = path.join(dir, 'person.json');
  const out = path.join(dir, 'people.yaml');
  const [a, c, written] = await Promise.all([
    runData(['schema', '--schema', schema, '--count', '5', '--seed', '9']),
    runData(['schema', '--schema', schema, '--count', '5', '--seed', '10']),
    runData(['schema', '--schema', schema, '--count', '5', '--seed', '9', '--output', out]),
  ]);
  t.not(a.stdout, c.stdout, 'another seed, other output');
  t.equal(written.stdout, '');
  t.same(parseYaml(readFileSync(out, 'utf8')), JSON.parse(a.stdout), 'YAML from the .yaml extension; the same seed in another process, the same values');
});

t.test('bad input: one line naming the flag or file, non-zero exit', async (t) => {
  const dir = t.testdir({
    'outside.json': JSON.stringify({ $ref: 'other.json#/x' }),
    'dangling.json': JSON.stringify({ type: 'object', properties: { a: { $ref: '#/definitions/Nope' } } }),
    'broken.json': '{"type": ',
    'list.json': '[1, 2]',
    'person.json': JSON.stringify(PERSON),
  });
  const expanded = path.join(corpus, 'openapi', 'oai-v3.0-petstore-expanded.yaml');
  const cases = [
    [['--schema', path.join(dir, 'missing.json')], /^--schema .*missing\.json: file not found \(checked .*; pass a JSON or YAML JSON Schema file\)$/],
    [['--schema', path.join(dir, 'outside.json')], /^--schema .*outside\.json: \$ref "other\.json#\/x" at \/ points outside the file/],
    [['--schema', path.join(dir, 'dangling.json')], /^--schema .*dangling\.json: \$ref "#\/definitions\/Nope" at \/properties\/a resolves to nothing \(fix the \$ref\)$/],
    [['--schema', path.join(dir, 'broken.json')], /^--schema .*broken\.json: not valid JSON or YAML: .* \(fix the file\)$/],
    [['--schema', path.join(dir, 'list.json')], /^--schema .*list\.json: not a JSON Schema \(expected an object or a boolean, got an array\)$/],
    [['--schema', path.join(dir, 'person.json'), '--definition', 'Adress'], /^--definition Adress: not in .*person\.json \(closest: Address\)$/],
    [['--spec', expanded, '--definition', 'Pets'], /^--definition Pets: no such schema in .* \(closest: Pet, NewPet, Error\)$/],
    [['--spec', expanded], /--definition/],
    [['--spec', expanded, '--definition', 'Pet', '--schema', path.join(dir, 'person.json')], /--schema|--spec/],
    [['--schema', expanded], /is an API description: pass --definition <Name> to pick one of its schemas \(e\.g\. Pet, NewPet, Error\)$/],
    [[], /^no schema given: pass --schema <file>, or --spec <file> with --definition <Name>$/],
  ];
  const results = await Promise.all(cases.map(([args]) => runData(['schema', ...args])));
  cases.forEach(([args, message], i) => {
    const res = results[i];
    t.not(res.code, 0, `${args.join(' ')} fails`);
    t.equal(res.stdout, '');
    const lines = res.stderr.trim().split('\n');
    t.equal(lines.length, 1, `one line: ${res.stderr}`);
    t.match(lines[0], message);
  });
});
