export { readableAddress } from './address.js';
export { bodyLength, held, withoutContent, type Answer, type Delivery, type Injected, type ItemStream } from './answer.js';
export type { ClientCertificate } from './client-certificate.js';
export { bytesOf, deliver, type DeliveryWriter } from './delivery.js';
export type { StreamWriter } from './item-stream.js';
export { Exchange, type BuildRoute, type ChainRun, type ExchangeInit, type ExchangeLocals, type GraphqlOperation, type GrpcCall, type RouteMatch, type RouteRef } from './exchange.js';
export { isMultipart, readMultipart, type FormParts } from './multipart.js';
export {
  clientCertificateRefused,
  insufficientScope,
  oauthError,
  ownAnswer,
  pluginUnauthorized,
  problem,
  PROBLEM_TYPE,
  rateLimited,
  refusal,
  refusalMarks,
  requestTooDeep,
  unauthorized,
  type Refusal,
} from './problem.js';
export { decode, parseCookies, parseQuery } from './query.js';
export { graphqlCodeOf, grpcStatusOf } from './protocol-status.js';
export type { RequestRecord } from './request-record.js';
export { isReused, reusedAnswer } from './reused.js';
export { hostPort, type ServerAdapter } from './server-adapter.js';
export type { Validated, ValidationIssue } from './validated.js';
