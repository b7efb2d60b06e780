// ts-proto as the compiler uses it (in-process, as its protoc plugin does). `npm run build` bundles
// this file with the package and ts-poet (scripts/bundle-libraries.js), so the published package
// ships the code and not the dependency: ts-poet requires dprint-node, which the bundle replaces
// with dprint's WebAssembly build of the same plugin (./dprint-node.ts).
import tsProtoPackage from 'ts-proto/package.json' with { type: 'json' };

export { CodeGeneratorRequest, FileDescriptorProto, type DescriptorProto } from 'ts-proto-descriptors';
export { createFileContext } from 'ts-proto/build/src/context.js';
export { generateFile, makeUtils } from 'ts-proto/build/src/main.js';
export { getTsPoetOpts, optionsFromParameter } from 'ts-proto/build/src/options.js';
export { createTypeMap } from 'ts-proto/build/src/types.js';

/** The version the typed code's header names (ts-proto's getVersions reads its package.json by a path a bundle does not keep). */
export const TS_PROTO_VERSION = `v${tsProtoPackage.version}`;
