// mock contract-diff generate-patch on corpus descriptions (OpenAPI 3.0, 3.1 and Swagger 2.0):
// captures that drift, the patch aimed where each schema lives (the shared component a $ref names),
// apply-patch, and the same captures analysed again without a mismatch.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { corpus, runCli } from '../helpers/cli.js';

const json = (status, body) => ({ status, headers: { 'content-type': 'application/json' }, body });

/** generate-patch, apply-patch and analyze again in `dir`; the patch's operations and the last analysis. */
async function correct(t, dir, spec, captures) {
  writeFileSync(path.join(dir, 'captures.json'), JSON.stringify(captures));
  const before = await runCli(['contract-diff', 'analyze', '--spec', spec, '--request-path', 'captures.json', '--format', 'json'], { cwd: dir });
  t.ok(JSON.parse(before.stdout).groups.length > 0, 'the captures drift from the description');
  const generated = await runCli(['contract-diff', 'generate-patch', '--spec', spec, '--request-path', 'captures.json', '--output', 'fix.json'], { cwd: dir });
  t.equal(generated.code, 0, generated.stderr);
  t.equal(generated.stdout, '');
  const operations = JSON.parse(readFileSync(path.join(dir, 'fix.json'), 'utf8'));
  t.match(generated.stderr, new RegExp(`^(note: .*\\n)*fix\\.json: ${operations.length} operation\\(s\\)\\n$`));
  const applied = await runCli(['contract-diff', 'apply-patch', '--spec', spec, '--patch', 'fix.json', '--output', `patched-${spec}`], { cwd: dir });
  t.equal(applied.code, 0, applied.stderr);
  const after = await runCli(['contract-diff', 'analyze', '--spec', `patched-${spec}`, '--request-path', 'captures.json', '--format', 'json', '--fail-on', 'low'], { cwd: dir });
  t.equal(after.code, 0, `analysed again, nothing drifts:\n${after.stdout}`);
  t.same(JSON.parse(after.stdout).groups, []);
  return { operations, stderr: generated.stderr };
}

const ops = (operations) => operations.map(({ op, path: at, value }) => `${op} ${at}${value === undefined ? '' : ` ${JSON.stringify(value)}`}`);

t.test('OpenAPI 3.0 petstore: widened types, nullability, bounds and formats in the shared Pet; new statuses, media types, methods and paths', async (t) => {
  const dir = t.testdir({});
  copyFileSync(path.join(corpus, 'openapi', 'oai-v3.0-petstore.yaml'), path.join(dir, 'pets.yaml'));
  const { operations, stderr } = await correct(t, dir, 'pets.yaml', [
    {
      method: 'GET',
      path: '/v1/pets',
      query_params: { limit: '500' },
      headers: {},
      response: json(200, [
        { id: 1, name: 'Rex', tag: null },
        { id: 2.5, name: 'Tom' },
      ]),
    },
    { method: 'POST', path: '/v1/pets', headers: { 'content-type': 'application/json' }, query_params: {}, body: { id: 7 } },
    { method: 'GET', path: '/v1/pets/1', headers: {}, query_params: {}, response: json(200, { id: 'one', name: 'Rex' }) },
    { method: 'DELETE', path: '/v1/pets/1', headers: {}, query_params: {}, response: { status: 204, headers: {} } },
    { method: 'GET', path: '/v1/owners/5', headers: {}, query_params: { expand: 'pets' }, response: json(200, { id: 5, name: 'Ann' }) },
    { method: 'POST', path: '/v1/pets', headers: { 'content-type': 'text/plain' }, query_params: {}, body: 'hello' },
  ]);
  const written = ops(operations);
  t.match(written, [
    'replace /paths/~1pets/get/parameters/0/schema/maximum 500',
    'add /components/schemas/Pet/properties/tag/nullable true',
    'replace /components/schemas/Pet/properties/id/type "number"',
    'remove /components/schemas/Pet/properties/id/format',
    'remove /components/schemas/Pet/required/1',
    /^replace \/components\/schemas\/Pet\/properties\/id \{"anyOf":\[\{"type":"number"\},\{"type":"string"\}\]\}$/,
    /^add \/paths\/~1pets~1\{petId\}\/delete \{"summary":"Observed in traffic.*"responses":\{"204"/,
    /^add \/paths\/~1owners~15 \{"get":.*"parameters":\[\{"name":"expand","in":"query"/,
    'add /paths/~1pets/post/requestBody/content/text~1plain {"schema":{"type":"string"}}',
  ]);
  t.equal(written.length, 9);
  t.match(stderr, /^note: GET \/v1\/owners\/5: added as a literal path/m, 'what the patch cannot know is said');
});

t.test('OpenAPI 3.1 tic-tac-toe: enums and bounds widened in the components every $ref shares, type lists for 3.1', async (t) => {
  const dir = t.testdir({});
  copyFileSync(path.join(corpus, 'openapi', 'oai-v3.1-tictactoe.yaml'), path.join(dir, 'game.yaml'));
  const key = { 'api-key': 'k', authorization: 'Bearer t' };
  const { operations } = await correct(t, dir, 'game.yaml', [
    {
      method: 'GET',
      path: '/board',
      headers: key,
      query_params: {},
      response: json(200, {
        winner: 'Z',
        board: [
          ['.', 'X', 'O', 'Q'],
          ['.', '.', '.'],
          ['.', '.', '.'],
          ['.', '.', '.'],
        ],
      }),
    },
    {
      method: 'GET',
      path: '/board',
      headers: key,
      query_params: {},
      response: json(200, {
        winner: null,
        board: [
          ['.', '.', '.'],
          ['.', '.', '.'],
          ['.', '.', '.'],
        ],
      }),
    },
    { method: 'GET', path: '/board/4/1', headers: key, query_params: {}, response: json(200, '"W"') },
    { method: 'PUT', path: '/board/1/1', headers: { ...key, 'content-type': 'application/json' }, query_params: {}, body: '"Y"' },
  ]);
  t.same(ops(operations).sort(), [
    'add /components/schemas/mark/enum/- "Q"',
    'add /components/schemas/mark/enum/- "W"',
    'add /components/schemas/mark/enum/- "Y"',
    'add /components/schemas/winner/enum/- "Z"',
    'add /components/schemas/winner/enum/- null',
    'replace /components/schemas/board/items/maxItems 4',
    'replace /components/schemas/board/maxItems 4',
    'replace /components/schemas/coordinate/maximum 4',
    'replace /components/schemas/winner/type ["string","null"]',
  ]);
});

t.test('Swagger 2.0 petstore-expanded: allOf branches corrected where each property is declared, x-nullable, no anyOf', async (t) => {
  const dir = t.testdir({});
  copyFileSync(path.join(corpus, 'openapi', 'oai-v2.0-petstore-expanded.yaml'), path.join(dir, 'pets2.yaml'));
  const { operations } = await correct(t, dir, 'pets2.yaml', [
    {
      method: 'GET',
      path: '/api/pets',
      headers: {},
      query_params: {},
      response: json(200, [
        { id: 1, name: 'Rex', tag: 5 },
        { id: 2, name: null },
      ]),
    },
    { method: 'POST', path: '/api/pets', headers: { 'content-type': 'application/json' }, query_params: {}, body: { tag: 'stray' }, response: json(200, { id: 3, tag: 'stray' }) },
  ]);
  t.same(ops(operations).sort(), ['add /definitions/NewPet/properties/name/x-nullable true', 'remove /definitions/NewPet/properties/tag/type', 'remove /definitions/NewPet/required']);
});

t.test('nothing drifts: an empty patch; inputs it cannot read are one line, exit 2', async (t) => {
  const dir = t.testdir({ 'clean.json': JSON.stringify([{ method: 'GET', path: '/v1/pets/1', headers: {}, query_params: {}, response: json(200, { id: 1, name: 'Rex' }) }]) });
  copyFileSync(path.join(corpus, 'openapi', 'oai-v3.0-petstore.yaml'), path.join(dir, 'pets.yaml'));
  const clean = await runCli(['contract-diff', 'generate-patch', '--spec', 'pets.yaml', '--request-path', 'clean.json'], { cwd: dir });
  t.same(clean, { code: 0, stdout: '[]\n', stderr: '' });
  const remote = await runCli(['contract-diff', 'generate-patch', '--spec', 'https://example.com/api.yaml', '--request-path', 'clean.json'], { cwd: dir });
  t.equal(remote.code, 2);
  t.equal(remote.stderr, '--spec: generate-patch corrects one local description file; pass --spec <file> (download a URL first: mock contract-sync)\n');
  const missing = await runCli(['contract-diff', 'generate-patch', '--spec', 'pets.yaml', '--request-path', 'nope.json'], { cwd: dir });
  t.equal(missing.code, 2);
  t.match(missing.stderr, /^[^\n]*nope\.json[^\n]*\n$/, 'one line naming the captures');
});
