export { readableAddress } from './address.js';
export { bodyLength, held, withoutContent, type Answer, type Delivery, type Injected } from './answer.js';
export { bytesOf, deliver, type DeliveryWriter } from './delivery.js';
export { Exchange, type BuildRoute, type ChainRun, type ExchangeInit, type ExchangeLocals, type GraphqlOperation, type GrpcCall, type RouteMatch, type RouteRef } from './exchange.js';
export { insufficientScope, oauthError, ownAnswer, problem, PROBLEM_TYPE, rateLimited, refusal, refusalMarks, requestTooDeep, unauthorized, type Refusal } from './problem.js';
export { decode, parseCookies, parseQuery } from './query.js';
export { graphqlCodeOf, grpcStatusOf } from './protocol-status.js';
export { hostPort, type ServerAdapter } from './server-adapter.js';
export type { Validated, ValidationIssue } from './validated.js';
