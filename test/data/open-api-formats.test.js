// `mock data open-api`: bodies made by the server's generators validate against the operation's schema
// in json, yaml and csv, on the bundled example and on real descriptions of the shared corpus.
import t from 'tap';
import path from 'node:path';
import { corpus } from '../helpers/cli.js';
import { errorsOf, expectedRow, operationValidator, parseCsv, runData, unflatten, valuesOf } from './helpers.js';

const PETSTORE = 'examples/petstore.yaml';
const SPOTIFY = path.join(corpus, 'openapi', 'spotify-web-api.yml');
const EXPANDED = path.join(corpus, 'openapi', 'oai-v3.0-petstore-expanded.yaml');

/** Runs the command in each format with one seed: every value validates, and the CSV holds the JSON values flattened. */
async function checkFormats(t, args, validate) {
  const seeded = [...args, '--count', '100', '--seed', '11'];
  const [json, yaml, csv] = await Promise.all([
    runData(['open-api', ...seeded]),
    runData(['open-api', ...seeded, '--format', 'yaml']),
    runData(['open-api', ...seeded, '--format', 'csv']),
  ]);
  t.equal(json.code, 0, json.stderr);
  const values = valuesOf(json.stdout, 'json', 100);
  t.equal(values.length, 100, '100 values');
  const invalid = values.filter((v) => !validate(v));
  t.same(invalid, [], `every value validates ${errorsOf(validate)}`);

  t.equal(yaml.code, 0, yaml.stderr);
  const fromYaml = valuesOf(yaml.stdout, 'yaml', 100);
  t.equal(fromYaml.length, 100);
  t.same(fromYaml.filter((v) => !validate(v)), [], `every YAML value validates ${errorsOf(validate)}`);
  t.same(fromYaml, values, 'YAML holds the same values as JSON');

  t.equal(csv.code, 0, csv.stderr);
  const { header, rows } = parseCsv(csv.stdout);
  t.equal(rows.length, 100, 'a row per value');
  const expected = values.map(expectedRow);
  const columns = [...new Set(expected.flatMap((row) => Object.keys(row)))];
  t.same(header, columns, 'header: union of the keys in first-seen order');
  t.same(rows, expected.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] ?? '']))), 'rows: the JSON values flattened');
  return { values, rows };
}

t.test('petstore GET /pets: 100 whole response bodies (arrays of pets), valid in json, yaml and csv', async (t) => {
  const { validate } = await operationValidator(PETSTORE, 'GET', '/pets');
  const { values, rows } = await checkFormats(t, ['--spec', PETSTORE, '--endpoint', '/pets', '--method', 'get'], validate);
  t.ok(values.every(Array.isArray), 'each value is one whole body: an array');
  t.same(Object.keys(rows[0]), ['value'], 'a body that is not an object fills the single column "value"');
  t.ok(rows.every((row) => Array.isArray(JSON.parse(row.value))), 'as JSON text');
});

t.test('petstore POST /pets: the 201 Pet; csv rows read back validate too', async (t) => {
  const { validate } = await operationValidator(PETSTORE, 'POST', '/pets', { status: '201' });
  const { rows } = await checkFormats(t, ['--spec', PETSTORE, '--endpoint', '/v1/pets', '--method', 'POST'], validate);
  t.ok(rows.some((row) => row['owner.email'] !== undefined), 'nested fields become dotted columns');
  // CSV cells are text: the one number column back to a number, everything else is a string in Pet
  const typed = rows.map(unflatten).map((row) => ({ ...row, id: Number(row.id) }));
  t.same(typed.filter((row) => !validate(row)), [], `rows read back from CSV validate ${errorsOf(validate)}`);
});

t.test('spotify GET /albums/{id}: 100 valid albums in json, yaml and csv; a concrete mounted path finds it', async (t) => {
  const { validate } = await operationValidator(SPOTIFY, 'GET', '/albums/{id}');
  const { values } = await checkFormats(t, ['--spec', SPOTIFY, '--endpoint', '/albums/{id}', '--method', 'get'], validate);
  t.ok(values.every((v) => v && typeof v === 'object' && !Array.isArray(v)), 'each value is an album object');
  // the mounted path with a concrete id finds the same operation
  const concrete = await runData(['open-api', '--spec', SPOTIFY, '--endpoint', '/v1/albums/4aawyAB9vmqN3uQ7FjRGTy/', '--seed', '11', '--count', '2']);
  t.equal(concrete.code, 0, concrete.stderr);
  t.same(JSON.parse(concrete.stdout), values.slice(0, 2), 'same operation, same values');
});

t.test('petstore-expanded: --mode request makes valid request bodies, readOnly left out', async (t) => {
  const { validate } = await operationValidator(EXPANDED, 'POST', '/pets', { mode: 'request' });
  const res = await runData(['open-api', '--spec', EXPANDED, '--endpoint', '/pets', '--method', 'post', '--mode', 'request', '--count', '100']);
  t.equal(res.code, 0, res.stderr);
  const values = JSON.parse(res.stdout);
  t.equal(values.length, 100);
  t.same(values.filter((v) => !validate(v)), [], errorsOf(validate));

  const mine = await runData(['open-api', '--spec', PETSTORE, '--endpoint', '/pets', '--method', 'post', '--mode', 'request', '--count', '50']);
  t.equal(mine.code, 0, mine.stderr);
  t.ok(JSON.parse(mine.stdout).every((pet) => !('id' in pet) && !('created_at' in pet)), 'readOnly id and created_at are not in request bodies');
});

