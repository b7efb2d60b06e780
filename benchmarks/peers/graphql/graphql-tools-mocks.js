// The schema the GraphQL peers of bench:graphql serve: the SDL made executable and mocked by
// @graphql-tools/mock (addMocksToSchema with its defaults: random values, lists of two), as GraphQL
// Yoga's and Apollo Server's documentation set up a mocked schema.
import { readFileSync } from 'node:fs';
import { addMocksToSchema } from '@graphql-tools/mock';
import { makeExecutableSchema } from '@graphql-tools/schema';

export const mockedSchema = (schemaFile) => addMocksToSchema({ schema: makeExecutableSchema({ typeDefs: readFileSync(schemaFile, 'utf8') }) });
