// The blueprint files themselves and how they are rendered (no servers here).
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { root } from '../helpers/cli.js';
import { parseFixture } from '../../dist/common/fixtures/index.js';
import { BLUEPRINT_NAMES, DEFAULT_BLUEPRINT, blueprintsRoot, planProject, selectExampleBlocks, stripResponseExamples } from '../../dist/src/init/index.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const blueprintDir = path.join(root, 'blueprints');
const fileOf = (files, name) => files.find((f) => f.path === name)?.content;

/** `METHOD /mounted/path` of every operation, and the description's response media types. */
function operations(api) {
  const mount = new URL(api.servers[0].url).pathname.replace(/\/$/, '');
  const out = [];
  for (const [p, item] of Object.entries(api.paths)) for (const m of METHODS) if (item[m]) out.push({ key: `${m.toUpperCase()} ${mount}${p}`, op: item[m] });
  return { mount, list: out };
}

function responseMedia(api) {
  const media = [];
  for (const { op } of operations(api).list) for (const r of Object.values(op.responses)) for (const m of Object.values(r.content ?? {})) media.push(m);
  for (const r of Object.values(api.components?.responses ?? {})) for (const m of Object.values(r.content ?? {})) media.push(m);
  return media;
}

t.test('the blueprints folder holds exactly the blueprints mock init offers, found from dist', async (t) => {
  t.same(readdirSync(blueprintDir).sort(), [...BLUEPRINT_NAMES].sort());
  t.equal(DEFAULT_BLUEPRINT, 'petstore');
  t.equal(blueprintsRoot(), blueprintDir);
  t.ok(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).files.includes('blueprints'), 'published with the package');
});

for (const name of BLUEPRINT_NAMES) {
  t.test(`${name}: description, configuration, state machine and fixture fit together`, async (t) => {
    const files = planProject({ blueprint: name, projectName: 'demo', examples: true });
    t.same(files.map((f) => f.path).filter((p) => !p.startsWith('fixtures/')), ['README.md', 'api.yaml', 'mock.yaml']);
    const fixtures = files.filter((f) => f.path.startsWith('fixtures/'));
    t.equal(fixtures.length, 1, 'one example fixture');
    t.match(fixtures[0].path, /^fixtures\/http\/[a-z0-9-]+\.json$/);
    t.same(parseFixture(fixtures[0].content, fixtures[0].path).problems, [], 'the fixture is one mock validate-fixtures accepts');
    for (const f of files) t.notMatch(f.content, /__PROJECT_NAME__|<!--/, `${f.path}: placeholders and markers are gone`);

    const api = parse(fileOf(files, 'api.yaml'));
    t.match(api.openapi, /^3\.0\./);
    t.equal(api.info.title.startsWith('demo '), true, 'the project name is in the title');
    const { mount, list } = operations(api);
    t.ok(list.length >= 5 && list.length <= 10, `${list.length} operations`);
    const text = fileOf(files, 'api.yaml');
    for (const keyword of ['format:', 'enum:', 'pattern:', '$ref:', 'components:']) t.ok(text.includes(keyword), `uses ${keyword}`);
    t.ok(responseMedia(api).some((m) => m.example !== undefined || m.examples !== undefined), 'some responses have examples');
    t.ok(Object.keys(api.components.schemas).length >= 5, 'realistic schemas');

    const config = parse(fileOf(files, 'mock.yaml'));
    t.same(config.specs, ['./api.yaml']);
    t.equal(config.validation.mode, 'enforce');
    t.equal(config.response_template_expand, true);
    t.equal(config.core.fixtures.dir, './fixtures');
    const routes = config.http.routes;
    t.ok(routes.length >= 3, `${routes.length} custom routes`);
    t.ok(routes.filter((r) => r.match).length >= 3, 'with conditions');
    for (const r of routes) t.ok(r.path.startsWith(`${mount}/`), `${r.path} is below the mount path ${mount}`);

    t.equal(config.core.stateful.enabled, true);
    t.equal(config.core.stateful.state_machines.length, 1, 'one state machine');
    const [machine] = config.core.stateful.state_machines;
    const states = machine.states.map((s) => s.name);
    t.ok(states.includes(machine.initial_state), 'the initial state is a state');
    t.equal(machine.resource_id_extract.type, 'path_param');
    const keys = new Set(list.map((o) => o.key));
    for (const tr of machine.transitions) {
      t.ok(states.includes(tr.from_state) && states.includes(tr.to_state), `${tr.from_state} → ${tr.to_state} are states`);
      t.ok(keys.has(`${tr.method} ${tr.path_pattern}`), `${tr.method} ${tr.path_pattern} is an operation of the description`);
      t.ok(tr.path_pattern.includes(`{${machine.resource_id_extract.param}}`), 'its path holds the resource id');
    }
    for (const s of machine.states) {
      const template = s.response.body_template;
      if (typeof template === 'string') t.doesNotThrow(() => JSON.parse(template.replace(/\{\{[^}]+\}\}/g, '1')), `${s.name}: body_template is JSON`);
      else t.equal(typeof template, 'object', `${s.name}: body_template is a YAML mapping, sent as JSON`);
    }

    // the fixture file format of the spec
    const fixture = JSON.parse(fixtures[0].content);
    t.same(
      Object.keys(fixture).filter((key) => key !== 'request').sort(),
      ['fingerprint', 'metadata', 'response_body', 'response_headers', 'status_code', 'timestamp'],
      'the fields of the spec, and the request its smoke test sends where the API wants credentials',
    );
    t.same(Object.keys(fixture.fingerprint).sort(), ['headers', 'method', 'path', 'query_params']);
    t.ok(Number.isInteger(fixture.status_code));
    t.ok(!Number.isNaN(Date.parse(fixture.timestamp)));
    t.equal(typeof fixture.response_body, 'string');
    t.doesNotThrow(() => JSON.parse(fixture.response_body));
    t.ok(Object.values(fixture.metadata).every((v) => typeof v === 'string'), 'metadata is a map of strings');
    t.equal(fixture.metadata.smoke_test, 'true');
    const described = list.some((o) => o.key.startsWith(`${fixture.fingerprint.method} `) && new RegExp(`^${o.key.split(' ')[1].replace(/\{[^}]+\}/g, '[^/]+')}$`).test(fixture.fingerprint.path));
    t.ok(described, `the fixture's ${fixture.fingerprint.method} ${fixture.fingerprint.path} is an operation of the description`);

    const readme = fileOf(files, 'README.md');
    t.match(readme, /^# demo\n/);
    t.match(readme, 'mock serve');
    t.ok(readme.includes(fixtures[0].path), 'the README names the example fixture');
  });

  t.test(`${name} --no-examples: no fixture, no response examples, nothing else changed`, async (t) => {
    const full = planProject({ blueprint: name, projectName: 'demo', examples: true });
    const bare = planProject({ blueprint: name, projectName: 'demo', examples: false });
    t.same(bare.map((f) => f.path), ['README.md', 'api.yaml', 'fixtures/http/.gitkeep', 'mock.yaml']);
    t.equal(fileOf(bare, 'fixtures/http/.gitkeep'), '');
    t.equal(fileOf(bare, 'mock.yaml'), fileOf(full, 'mock.yaml'), 'configuration is the same');
    const api = parse(fileOf(bare, 'api.yaml'));
    t.notOk(responseMedia(api).some((m) => m.example !== undefined || m.examples !== undefined), 'no response examples');
    const expected = parse(fileOf(full, 'api.yaml'));
    for (const m of responseMedia(expected)) {
      delete m.example;
      delete m.examples;
    }
    t.same(api, expected, 'everything else in the description is kept');
    const fixture = full.find((f) => f.path.startsWith('fixtures/')).path;
    t.notOk(fileOf(bare, 'README.md').includes(fixture), 'the README does not mention the left-out fixture');
    t.notMatch(fileOf(bare, 'README.md'), /Prefer: example=|examples in `api.yaml`/, 'nor named examples');
    t.match(fileOf(full, 'README.md'), 'Prefer: example=');
  });
}

t.test('stripResponseExamples cuts only response examples, keeping comments and layout', async (t) => {
  const source = [
    'openapi: 3.0.3 # kept',
    'paths:',
    '  /a:',
    '    get:',
    '      parameters:',
    '        - { name: q, in: query, schema: { type: string }, example: keep-me }',
    '      responses:',
    "        '200':",
    '          description: ok',
    '          content:',
    '            application/json:',
    '              schema: { type: object, example: { also: kept } }',
    '              example: { gone: true }',
    '              # a comment that stays',
    '            text/plain:',
    '              examples:',
    '                one: { value: gone }',
    '                two:',
    '                  value: gone',
    '              schema: { type: string }',
    'components:',
    '  responses:',
    '    E:',
    '      content:',
    '        application/json:',
    '          example: [1, 2]',
    '',
  ].join('\n');
  const out = stripResponseExamples(source);
  t.equal(
    out,
    source
      .split('\n')
      .filter((l) => !/gone|^\s+(example:|examples:|one:|two:) ?/.test(l) || /keep-me|also: kept/.test(l))
      .join('\n'),
  );
  t.match(out, '# a comment that stays');
  t.match(out, 'example: keep-me');
  t.match(out, 'example: { also: kept }');
});

t.test('selectExampleBlocks keeps one side of the README markers', async (t) => {
  const md = 'a\n<!-- examples -->\nwith\n<!-- /examples -->\n<!-- no-examples -->\nwithout\n<!-- /no-examples -->\nb\n';
  t.equal(selectExampleBlocks(md, true), 'a\nwith\nb\n');
  t.equal(selectExampleBlocks(md, false), 'a\nwithout\nb\n');
});
