/**
 * Fake data both mocks generate from a hash (GraphQL fields and gRPC message fields): the 32-bit
 * hashes values derive from, the seeded fakes (pooled words, names, dates, UUIDs that carry their
 * lanes) and the name heuristics that pick a fake by a field's name.
 */
export { between, hashMessage, hashString, hashValue, mix, unit } from './hash.js';
export { decodeUuid, decodedA, decodedB, decodedTag, Fakes, uuidOf, type FakeKind, type Gen, type NumberSpec } from './fakes.js';
export { booleanGen, dateKind, floatGen, intGen, stringGen, wordsOf, type DateShape, type LeafField } from './name-kinds.js';
