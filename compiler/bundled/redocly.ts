// @redocly/openapi-core as the loader uses it (reading and bundling descriptions). `npm run build`
// bundles this file with the package and what it needs (graphql, its own Ajv, the YAML parsers) into
// one module (scripts/bundle-libraries.js): the package is about 700 files, and loading them one by
// one cost about half a second of every build's start; bundled it also ships 2 MB instead of 15.
export { BaseResolver, bundle, createConfig, lintFromString, Source, type Document, type ResolveError, type YamlParseError } from '@redocly/openapi-core';
