// Peer: Apollo Server's standalone server (node:http) serving the schema mocked by
// @graphql-tools/mock (graphql-tools-mocks.js, what Apollo Server's documentation uses for mocks),
// with its defaults (its document cache on). argv: <schema.graphql>. Answers on every path.
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { mockedSchema } from './graphql-tools-mocks.js';

const server = new ApolloServer({ schema: mockedSchema(process.argv[2]) });
const { url } = await startStandaloneServer(server, { listen: { host: '127.0.0.1', port: 0 } });
console.log(`serving on ${url.replace(/\/$/, '')}`);
