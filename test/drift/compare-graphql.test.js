// src/drift/compare/graphql: the GraphQL comparer of `mock contract-diff compare` (issue 39), on
// versions of the corpus's SWAPI schema edited here, read as mock build --graphql-schema reads them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, introspectionFromSchema, lexicographicSortSchema, printSchema } from 'graphql';
import t from 'tap';
import { compareGraphql } from '../../dist/src/drift/compare/graphql/index.js';
import { corpus, tmpdir } from '../helpers/cli.js';

const swapi = readFileSync(path.join(corpus, 'graphql/swapi.graphql'), 'utf8');
// an enum and an input type beside SWAPI's, used by Root.films, for their checks
const extended = `${swapi}
enum Era {
  OLD
  NEW
}

input FilmFilter {
  era: Era
  director: String
}

extend type Root {
  films(filter: FilmFilter): [Film]
}
`;

const director = '  """The name of the director of this film."""\n  director: String\n';

const edit = (text, from, to) => {
  if (!text.includes(from)) throw new Error(`the schema no longer holds ${from}`);
  return text.replace(from, to);
};

/** Writes both versions into a fresh folder and compares them: [id, severity, location] of each change. */
async function changes(old, next, extension = '.graphql') {
  const dir = tmpdir();
  writeFileSync(path.join(dir, `old${extension}`), old);
  writeFileSync(path.join(dir, `new${extension}`), next);
  const found = await compareGraphql(`old${extension}`, `new${extension}`, { cwd: dir });
  return found.map(({ id, severity, kind, location, message }) => {
    if (kind !== 'graphql' || message.includes('\n')) throw new Error(`not a graphql change on one line: ${JSON.stringify({ kind, message })}`);
    return [id, severity, location];
  });
}

t.test('identical, reordered and reformatted schemas report nothing, whatever files they come in', async (t) => {
  t.same(await changes(swapi, swapi), []);
  const reordered = printSchema(lexicographicSortSchema(buildSchema(swapi)));
  t.not(reordered, swapi);
  t.same(await changes(swapi, reordered), []);
  t.same(await changes(swapi, swapi.replace(/\n\n/g, '\n').replace(/^ {2}/gm, '\t'), '.gql'), []);

  // an introspection result (.json), and the same SDL split in two files matched by a glob
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'swapi.json'), JSON.stringify({ data: introspectionFromSchema(buildSchema(swapi)) }));
  mkdirSync(path.join(dir, 'split'));
  const at = swapi.indexOf('type Root {');
  writeFileSync(path.join(dir, 'split/a.graphql'), swapi.slice(0, at));
  writeFileSync(path.join(dir, 'split/b.graphqls'), swapi.slice(at));
  writeFileSync(path.join(dir, 'swapi.graphql'), swapi);
  t.same(await compareGraphql('swapi.graphql', 'swapi.json', { cwd: dir }), []);
  t.same(await compareGraphql(['split/a.graphql', 'split/b.graphqls'], 'split/*.graphql*', { cwd: dir }), []);
  const less = path.join(dir, 'less.graphql');
  writeFileSync(less, edit(swapi, director, ''));
  t.same(
    (await compareGraphql('split/*', less, { cwd: dir })).map((c) => c.id),
    ['field-removed'],
  );
});

t.test('fields, arguments and types classified as breaking, dangerous or safe', async (t) => {
  t.same(await changes(swapi, edit(swapi, director, '')), [['field-removed', 'error', 'Film.director']]);
  t.same(await changes(swapi, edit(swapi, '  director: String\n', '  director: String\n  rating: Int\n')), [['field-added', 'info', 'Film.rating']]);
  t.same(await changes(swapi, edit(swapi, '  director: String\n', '  director: Int\n')), [['field-type-changed', 'error', 'Film.director']]);
  // a non-null output is safe for clients; a required argument is not
  t.same(await changes(swapi, edit(swapi, '  director: String\n', '  director: String!\n')), [['field-type-changed', 'info', 'Film.director']]);
  t.same(await changes(swapi, edit(swapi, 'film(id: ID, filmID: ID): Film', 'film(id: ID!, filmID: ID): Film')), [['field-argument-type-changed', 'error', 'Root.film.id']]);
  t.same(await changes(swapi, edit(swapi, 'film(id: ID, filmID: ID): Film', 'film(id: ID): Film')), [['field-argument-removed', 'error', 'Root.film.filmID']]);
  // an optional argument is possibly breaking to the differ: the field's answer may depend on it
  t.same(await changes(swapi, edit(swapi, 'film(id: ID, filmID: ID): Film', 'film(id: ID, filmID: ID, title: String): Film')), [['field-argument-added', 'warning', 'Root.film.title']]);
  t.same(await changes(swapi, edit(swapi, 'film(id: ID, filmID: ID): Film', 'film(id: ID, filmID: ID, title: String!): Film')), [['field-argument-added', 'error', 'Root.film.title']]);
  t.same(await changes(swapi, edit(swapi, '  director: String\n', '  director: String @deprecated(reason: "use directors")\n')), [
    ['field-deprecation-added', 'info', 'Film.director.@deprecated'],
    ['directive-usage-field-definition-added', 'info', 'Film.director.@deprecated'],
    ['directive-usage-argument-added', 'info', 'Film.director.@deprecated.reason'],
  ]);
  t.same(await changes(`${swapi}\ntype Extra {\n  id: ID\n}\n`, swapi), [['type-removed', 'error', 'Extra']]);
  t.same(await changes(swapi, `${swapi}\ntype Extra {\n  id: ID\n}\n`), [
    ['type-added', 'info', 'Extra'],
    ['field-added', 'info', 'Extra.id'],
  ]);
});

t.test('enums, inputs and interfaces', async (t) => {
  t.same(await changes(extended, edit(extended, '  OLD\n', '')), [['enum-value-removed', 'error', 'Era.OLD']]);
  // a client switching over the values may not expect a new one
  t.same(await changes(extended, edit(extended, '  NEW\n', '  NEW\n  SEQUEL\n')), [['enum-value-added', 'warning', 'Era.SEQUEL']]);
  t.same(await changes(extended, edit(extended, '  director: String\n}', '  director: String\n  title: String!\n}')), [['input-field-added', 'error', 'FilmFilter.title']]);
  t.same(await changes(extended, edit(extended, '  director: String\n}', '  director: String\n  title: String\n}')), [['input-field-added', 'info', 'FilmFilter.title']]);
  t.same(await changes(extended, edit(extended, '  era: Era\n', '')), [['input-field-removed', 'error', 'FilmFilter.era']]);
  t.same(await changes(swapi, edit(swapi, 'type Film implements Node {', 'type Film {')), [['object-type-interface-removed', 'error', 'Film']]);
});

t.test('what the mock declares for a schema (its directives and their types) is not reported as the schema changing', async (t) => {
  const faked = edit(swapi, '  director: String\n', '  director: String @fake(type: firstName)\n');
  t.same(await changes(faked, swapi), [['directive-usage-field-definition-removed', 'warning', 'Film.director.@fake']]);
  t.same(await changes(faked, faked), []);
});

t.test('a malformed or missing schema is a one-line MockError naming the side and the file', async (t) => {
  const dir = tmpdir();
  writeFileSync(path.join(dir, 'ok.graphql'), swapi);
  writeFileSync(path.join(dir, 'bad.graphql'), edit(swapi, 'type Root {', 'type Root {{'));
  writeFileSync(path.join(dir, 'bad.json'), '{"data": {"nothing": true}}');
  const syntax = await compareGraphql('ok.graphql', 'bad.graphql', { cwd: dir }).catch((e) => e);
  t.equal(syntax.name, 'MockError');
  t.equal(syntax.code, 'MOCK_ERR_GRAPHQL_SCHEMA');
  t.match(syntax.message, /^the new GraphQL schema: bad\.graphql:\d+:\d+: Syntax Error/);
  t.notMatch(syntax.message, /\n/);
  const introspection = await compareGraphql('bad.json', 'ok.graphql', { cwd: dir }).catch((e) => e);
  t.equal(introspection.code, 'MOCK_ERR_GRAPHQL_SCHEMA');
  t.match(introspection.message, /^the old GraphQL schema: bad\.json: not a GraphQL introspection result/);
  const missing = await compareGraphql('ok.graphql', 'nowhere.graphql', { cwd: dir }).catch((e) => e);
  t.equal(missing.code, 'MOCK_ERR_GRAPHQL_SCHEMA_NOT_FOUND');
  t.match(missing.message, /^the new GraphQL schema: .*nowhere\.graphql/);
  t.notMatch(missing.message, /\n/);
});
