// Peer: GraphQL Yoga on node:http serving the schema mocked by @graphql-tools/mock
// (graphql-tools-mocks.js, beside it), with Yoga's defaults (its parse and validate caches on), GraphiQL and
// logging off. argv: <schema.graphql>. Answers at /graphql.
import { createServer } from 'node:http';
import { createYoga } from 'graphql-yoga';
import { mockedSchema } from './graphql-tools-mocks.js';

const yoga = createYoga({ schema: mockedSchema(process.argv[2]), graphiql: false, logging: false });
const server = createServer(yoga);
server.listen(0, '127.0.0.1', () => {
  console.log(`serving on http://127.0.0.1:${server.address().port}`);
});
