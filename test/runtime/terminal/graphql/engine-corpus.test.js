// The GraphQL engine over the real-world SDLs of ../shared/corpus/graphql: each builds, answers a
// mid-size query over its root fields without errors, and answers an IDE's introspection query
// within the default limits.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { buildClientSchema, buildSchema, getIntrospectionQuery, printSchema } from 'graphql';
import { midSizeQuery } from './query-builder.js';
import { data, mockEngine, run } from './helpers.js';

const CORPUS = new URL('../../../../../shared/corpus/graphql/', import.meta.url);

for (const name of ['artsy-metaphysics', 'linear', 'swapi']) {
  t.test(name, async (t) => {
    const sdl = readFileSync(new URL(`${name}.graphql`, CORPUS), 'utf8');
    let start = performance.now();
    const engine = mockEngine(sdl, { listLength: { min: 2, max: 3 } });
    t.comment(`${name}: engine built in ${(performance.now() - start).toFixed(0)} ms`);

    const query = midSizeQuery(engine.schema);
    start = performance.now();
    const answer = await data(t, engine, query);
    t.comment(`${name}: first mid-size query in ${(performance.now() - start).toFixed(0)} ms, ${JSON.stringify(answer).length} bytes`);
    t.ok(Object.keys(answer).length >= 5, 'root fields answered');
    t.equal(engine.stats.compiled, 0, 'a document seen once is run by graphql-js');
    start = performance.now();
    const again = await data(t, engine, query);
    t.comment(`${name}: again (prepared, pools built) in ${(performance.now() - start).toFixed(1)} ms`);
    t.same(again, answer, 'the same query answers the same, compiled by graphql-jit or run by graphql-js');
    t.equal(engine.stats.compiled, 1, 'graphql-jit compiled it the second time');
    t.equal(engine.stats.interpreted, 0, 'nothing it could not compile');
    t.same(await data(t, engine, query), answer, 'and the compiled code answers the same again');

    const introspection = await run(engine, getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }));
    t.same(introspection.errors, undefined, 'an IDE introspection query passes max_depth 15 and max_complexity 1000');
    t.ok(introspection.data?.__schema, 'and answers');
    if (name === 'swapi') t.equal(printSchema(buildClientSchema(introspection.data)), printSchema(buildSchema(sdl)), 'introspection prints the SDL');
  });
}
