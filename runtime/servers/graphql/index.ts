/** The GraphQL server's parts: GraphQL over HTTP (terminal, router, the edge's answers, GraphiQL for browsers), subscriptions over graphql-transport-ws, per-operation statistics. */
export { asGraphqlAnswer } from './graphql-answer.js';
export { GraphiqlPage } from './graphiql-page.js';
export type { GraphqlOptions, SocketLimits } from './graphql-options.js';
export { GraphqlRouter } from './graphql-router.js';
export { describeOperation, graphqlTerminal } from './graphql-terminal.js';
export { OperationStats } from './operation-stats.js';
export { SubscriptionEndpoint } from './subscriptions.js';
