export { readableAddress } from './address.js';
export { bodyLength, held, withoutContent, type Answer, type Delivery, type Injected } from './answer.js';
export { Exchange, type BuildRoute, type ExchangeInit, type RouteMatch, type RouteRef } from './exchange.js';
export { decode, parseCookies, parseQuery } from './query.js';
export { hostPort, type ServerAdapter } from './server-adapter.js';
