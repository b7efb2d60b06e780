import protobufDescriptor from 'protobufjs/ext/descriptor/index.js';
import {
  CodeGeneratorRequest,
  createFileContext,
  createTypeMap,
  FileDescriptorProto,
  generateFile,
  getTsPoetOpts,
  makeUtils,
  optionsFromParameter,
  TS_PROTO_VERSION,
  type DescriptorProto,
} from '../bundled/ts-proto.js';
import { BUILD_SUBFOLDER } from '../../common/build-files.js';
import type { GrpcBuildOutput } from '../../common/grpc/build-output.js';

/** The build's subfolder holding the typed message code: `grpc/examples/route_guide.ts`. */
export const GRPC_CODE_DIR = BUILD_SUBFOLDER;

/**
 * ts-proto's parameter, fixed so that a build is the same everywhere, chosen for a user of @grpc/grpc-js:
 * - outputServices=grpc-js: a typed client constructor, a `…Server` interface for grpc-js'
 *   Server#addService and the service definition, besides the messages;
 * - forceLong=string: 64-bit integers as strings, lossless and as proto3 JSON (and the mock's HTTP
 *   bridge) write them, and no `long` package to install;
 * - env=node: bytes as Buffer, what grpc-js hands over;
 * - useOptionals=messages: a message field may be left out (`?:`), as it may on the wire;
 * - oneof=unions-value: a oneof is one `{ $case, value }` property, which TypeScript narrows
 *   (ts-proto's recommended form);
 * - importSuffix=.js: the files import each other as `./x.js`, which Node's ES modules (a build
 *   folder is `"type": "module"`) and every TypeScript module resolution accept;
 * - esModuleInterop=true: default imports of CommonJS packages.
 * The code imports `@bufbuild/protobuf/wire` (ts-proto's runtime) and `@grpc/grpc-js`.
 */
export const TS_PROTO_PARAMETER = 'outputServices=grpc-js,forceLong=string,env=node,useOptionals=messages,oneof=unions-value,importSuffix=.js,esModuleInterop=true';

/**
 * The typed message code of the .proto files, by ts-proto run in-process (no protoc): build-relative
 * path (`grpc/<import path>.ts`) -> content. `files` are the build's FileDescriptorProtos; `userFiles`
 * the user's import paths, the files to generate. ts-proto generates the files they import too
 * (well-known types included): the generated files import each other by relative path.
 */
export async function typedMessageCode(output: GrpcBuildOutput, userFiles: readonly string[]): Promise<Map<string, string>> {
  const encoded = buildOrder(output.files);
  const request = CodeGeneratorRequest.fromPartial({
    fileToGenerate: userFiles.filter((file) => file in output.files),
    parameter: TS_PROTO_PARAMETER,
    protoFile: encoded.map(({ bytes }) => FileDescriptorProto.decode(bytes)),
  });
  // ts-proto-descriptors gives every field an own `oneofIndex` (0 when unset), and ts-proto reads
  // an own property as "in a oneof": keep it only where the descriptor sets it
  request.protoFile.forEach((file, i) => {
    file.messageType.forEach((message, j) => dropUnsetOneofIndex(message, encoded[i].present.messageType[j]));
  });

  // what ts-proto's protoc plugin (build/src/plugin.js) does with a request, emitImportedFiles on;
  // its getVersions names protoc's version from the request, which no protoc made here
  const protocVersion = 'unknown';
  const options = optionsFromParameter(request.parameter);
  const ctx = { typeMap: createTypeMap(request, options), options, utils: makeUtils(options) };
  const wanted = new Set<string>();
  const add = (names: readonly string[]): void => {
    for (const name of names) {
      if (wanted.has(name)) continue;
      wanted.add(name);
      add(request.protoFile.find((file) => file.name === name)?.dependency ?? []);
    }
  };
  add(request.fileToGenerate);
  const code = new Map<string, string>();
  for (const file of request.protoFile) {
    if (!wanted.has(file.name)) continue;
    const [path, generated] = generateFile({ ...ctx, currentFile: createFileContext(file) }, file);
    if (path.startsWith('/') || path.split('/').includes('..')) throw new Error(`ts-proto named a file outside its folder: ${path}`);
    code.set(`${GRPC_CODE_DIR}/${path}`, generated.toString({ ...getTsPoetOpts(options, TS_PROTO_VERSION, protocVersion, file.name), path }));
  }
  return new Map([...code].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

interface PresentMessage {
  field: Array<{ oneofIndex?: number }>;
  nestedType: PresentMessage[];
}
/** A file as protobufjs decodes it: only the fields the bytes set are own properties. */
interface PresentFile {
  dependency: string[];
  messageType: PresentMessage[];
}

function dropUnsetOneofIndex(message: DescriptorProto, present: PresentMessage): void {
  message.field.forEach((field, i) => {
    if (!Object.prototype.hasOwnProperty.call(present.field[i], 'oneofIndex')) delete (field as { oneofIndex?: number }).oneofIndex;
  });
  message.nestedType.forEach((nested, i) => dropUnsetOneofIndex(nested, present.nestedType[i]));
}

/** The files' bytes, every file after the files it imports (as protoc hands them to a plugin). */
function buildOrder(files: Readonly<Record<string, string>>): Array<{ bytes: Buffer; present: PresentFile }> {
  const order: Array<{ bytes: Buffer; present: PresentFile }> = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name) || !(name in files)) return;
    seen.add(name);
    const bytes = Buffer.from(files[name], 'base64');
    const present = protobufDescriptor.FileDescriptorProto.decode(bytes) as unknown as PresentFile;
    for (const imported of present.dependency) visit(imported);
    order.push({ bytes, present });
  };
  for (const name of Object.keys(files).sort()) visit(name);
  return order;
}
