import { createRequire } from 'node:module';
import type * as randexp from 'randexp';

/** The randexp class: the compiler checks patterns with it, generated responders draw strings from it. */
export type RandExpClass = typeof randexp.default.default;

// randexp's CommonJS entry assigns the class to module.exports while its typings describe
// `exports.default`, so load it through require to get the class under NodeNext.
export const RandExp = createRequire(import.meta.url)('randexp') as RandExpClass;
