// json-schema-to-typescript as the compiler uses it. `npm run build` bundles this file with the
// package (scripts/bundle-libraries.js), so the published package ships the code and not the
// dependency: json-schema-to-typescript requires prettier (12 MB) at load, and types.ts is written
// with `format: false`, so the bundle carries a stand-in for prettier (./prettier.ts) instead.
export { compile } from 'json-schema-to-typescript';
export { toSafeString } from 'json-schema-to-typescript/dist/src/utils.js';
