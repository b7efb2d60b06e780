export { Engine, type EngineOptions } from './engine.js';
export { loadBuild } from './load-build.js';
export type { MockRequest, MockResponse } from './request.js';
export type { BuildModule } from './build-module.js';
