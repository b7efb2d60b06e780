export { samplePins, sampleCredentials, type Credentials } from './credentials.js';
export { loadIr } from './load-ir.js';
export { createRequestFactory, serialise, type PlannedRequest, type RequestFactory } from './request-factory.js';
export { sequenceBody } from './sequence-body.js';
