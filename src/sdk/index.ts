/**
 * The embedding SDK, the package's main entry (`import { startMockServer } from 'mock-compiler'`):
 * a mock started from code with any mock.yaml setting, among them the conditional proxy's rules
 * (the spec's `ProxyConfig`) and the reality continuum. docs/sdk.md.
 */
export { startMockServer } from './start-mock-server.js';
export type { DeepPartial, MockServer, MockServerOptions, ProxyOptions, ProxyRule } from './options.js';
export { MockError, isMockError } from '../../common/errors.js';
export { MemoryStores, STORE_NAMES, type Awaitable, type Store, type StoreBudget, type StoreChange, type StoreFactory, type StoreName, type StoreUsage } from '../../runtime/store/index.js';
