import { AdminError, ok } from '../envelope.js';
import type { AdminRoute } from '../router.js';

const NONE = 'no GraphQL server runs: give a schema with --graphql-schema, MOCK_GRAPHQL_SCHEMA or graphql.schema in mock.yaml';

/** The GraphQL server: its address, settings, schema roots and operations (docs/graphql.md). */
export const graphqlRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: 'graphql',
    handler: ({ ctx }) => {
      const details = ctx.registry.details('GraphQL');
      if (details === undefined) throw new AdminError(404, NONE);
      return ok(details);
    },
  },
  {
    method: 'POST',
    path: 'graphql/reset',
    handler: ({ ctx }) => {
      if (!ctx.registry.reset('GraphQL')) throw new AdminError(404, NONE);
      ctx.logger.info('admin: the GraphQL store reset');
      return ok({ reset: true });
    },
  },
];
