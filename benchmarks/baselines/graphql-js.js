// Baseline: graphql's own parse, validate and execute over the mock's schema and resolvers (the
// engine of dist/, built with the same settings as the mock), in a minimal node:http server: what
// the mock would be with graphql-js and node:http instead of graphql-jit, its document cache and uWS.
// argv: <schema.graphql> <seed> [cached]; with `cached`, each document is parsed and validated once
// and kept by its text (what graphql-jit's compile cache gives the mock, without graphql-jit).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { execute, parse, validate } from 'graphql';
import { GraphqlEngine } from '../../dist/runtime/terminal/graphql/index.js';

const [schemaFile, seed, cached] = process.argv.slice(2);
const documents = new Map();
const engine = new GraphqlEngine(readFileSync(schemaFile, 'utf8'), {
  seed: Number(seed),
  now: () => Date.parse('2025-01-01T00:00:00Z'),
  overrides: {},
  listLength: { min: 2, max: 4 },
  maxDepth: 15,
  maxComplexity: 1000,
  maxAliases: 50,
  maxTokens: 10000,
  maxCacheBytes: 32 * 1024 * 1024,
  maxStoreBytes: 64 * 1024 * 1024,
  introspection: true,
  subscriptionIntervalMs: 1000,
  subscriptionMaxEvents: 0,
});
const { schema } = engine;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    const { query, variables, operationName } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    let prepared = cached === 'cached' ? documents.get(query) : undefined;
    if (prepared === undefined) {
      const document = parse(query);
      prepared = { document, errors: validate(schema, document) };
      if (cached === 'cached') documents.set(query, prepared);
    }
    const { document, errors } = prepared;
    const result = errors.length > 0 ? { errors } : await execute({ schema, document, variableValues: variables, operationName });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(`serving on http://127.0.0.1:${server.address().port}`);
});
