import { createRequire } from 'node:module';
import type * as randexp from 'randexp';

type RandExpClass = typeof randexp.default.default;

/**
 * randexp's class: the runtime draws pattern strings with it, the compiler checks that it can
 * parse a pattern. Its CommonJS entry assigns the class to module.exports while its typings
 * describe `exports.default`, so it is loaded through require to get the class under NodeNext.
 */
export const RandExp = createRequire(import.meta.url)('randexp') as RandExpClass;
