// Field names read the same way in both generators (issue 37, item 12): the corpus's SWAPI schema
// served by the GraphQL mock and a description served by the HTTP mock, each through `mock serve`:
// person-like fields (director, producers, author, owner, assignee, createdBy, firstName, name)
// hold people's names, free text (openingCrawl, description, title) English words, and no
// lorem-ipsum word appears anywhere.
import t from 'tap';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { faker } from '@faker-js/faker/locale/en';
import { corpus, startCommand, tmpdir } from '../helpers/cli.js';

const definitions = faker.rawDefinitions;
const english = new Set([...Object.values(definitions.word), ...Object.values(definitions.hacker)].flat().flatMap((w) => String(w).toLowerCase().split(/[^a-z]+/)));
/** Lorem ipsum's words that are not English words too (`id`, `in` and `video` are both). */
const latin = new Set(definitions.lorem.word.map((w) => w.toLowerCase()).filter((w) => !english.has(w)));
const firstNames = new Set(Object.values(definitions.person.first_name).flat());
const lastNames = new Set(Object.values(definitions.person.last_name).flat());

const latinIn = (text) => String(text).toLowerCase().split(/[^a-z]+/).filter((w) => latin.has(w));
/** A person's name: a first name and a last name of faker's lists among its words (a title or a suffix may come with them). */
const isPersonName = (text) => {
  const words = String(text).split(/\s+/);
  return words.some((w) => firstNames.has(w)) && words.some((w) => w.replace(/,$/, '').split('-').every((part) => lastNames.has(part)));
};

const dir = tmpdir();
const properties = (names) => Object.fromEntries(names.map((n) => [n, { type: 'string' }]));
const people = ['director', 'author', 'owner', 'assignee', 'createdBy', 'firstName', 'name'];
const text = ['description', 'summary', 'comment', 'title'];
writeFileSync(
  path.join(dir, 'api.json'),
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'films', version: '1' },
    servers: [{ url: '/v1' }],
    paths: {
      '/films': {
        get: {
          responses: {
            200: {
              description: 'films',
              content: { 'application/json': { schema: { type: 'array', minItems: 5, maxItems: 5, items: { type: 'object', required: [...people, ...text], properties: properties([...people, ...text]) } } } },
            },
          },
        },
      },
    },
  }),
);
writeFileSync(path.join(dir, 'mock.yaml'), `specs: [api.json]\nserver: { http_port: 0, graphql_port: 0 }\ngraphql:\n  schema: ${JSON.stringify(path.join(corpus, 'graphql', 'swapi.graphql'))}\n`);
const server = await startCommand(['serve', '--host', '127.0.0.1', '-c', path.join(dir, 'mock.yaml')], /GraphQL on (http:\/\/\S+)/, { cwd: dir });
t.teardown(() => server.stop());
const httpUrl = /serving on (http:\/\/\S+?)(\/v1)?\s/.exec(server.stdout)?.[1] ?? /(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(server.stdout)?.[1];

t.test('GraphQL: SWAPI films have directors and producers with names, and an English opening crawl', async (t) => {
  const res = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ allFilms(first: 5) { films { title director producers openingCrawl } } allPeople(first: 5) { people { name } } }' }),
  });
  const { data, errors } = await res.json();
  t.notOk(errors);
  const films = data.allFilms.films;
  t.ok(films.length > 0);
  for (const film of films) {
    t.ok(isPersonName(film.director), `director ${JSON.stringify(film.director)} is a person's name`);
    for (const producer of film.producers) t.ok(isPersonName(producer), `producer ${JSON.stringify(producer)} is a person's name`);
    t.same(latinIn(`${film.title} ${film.openingCrawl}`), [], `no lorem ipsum in ${JSON.stringify(film.openingCrawl)}`);
    t.ok(film.openingCrawl.split(' ').length >= 5, 'the opening crawl is sentences');
  }
  for (const person of data.allPeople.people) t.ok(isPersonName(person.name), `Person.name ${JSON.stringify(person.name)}`);
});

t.test('OpenAPI: the same names read the same way in generated bodies', async (t) => {
  t.ok(httpUrl, 'the HTTP mock address is printed');
  const res = await fetch(`${httpUrl}/v1/films`);
  t.equal(res.status, 200);
  const films = await res.json();
  t.equal(films.length, 5);
  for (const film of films) {
    for (const field of ['director', 'author', 'owner', 'assignee', 'createdBy', 'name']) t.ok(isPersonName(film[field]), `${field} ${JSON.stringify(film[field])} is a person's name`);
    t.ok(firstNames.has(film.firstName), `firstName ${JSON.stringify(film.firstName)}`);
    for (const field of text) t.same(latinIn(film[field]), [], `no lorem ipsum in ${field} ${JSON.stringify(film[field])}`);
  }
});
