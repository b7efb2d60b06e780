import { fromJSON, type ServiceDefinition } from '@grpc/proto-loader';
import type { handleBidiStreamingCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { GRPC } from '../../../common/grpc-status.js';
import { LOADER_OPTIONS } from './loader-options.js';

/** grpc/reflection/v1/reflection.proto's messages (the same in v1alpha), as protobufjs JSON. */
const MESSAGES = {
  ServerReflectionRequest: {
    oneofs: { message_request: { oneof: ['file_by_filename', 'file_containing_symbol', 'file_containing_extension', 'all_extension_numbers_of_type', 'list_services'] } },
    fields: {
      host: { type: 'string', id: 1 },
      file_by_filename: { type: 'string', id: 3 },
      file_containing_symbol: { type: 'string', id: 4 },
      file_containing_extension: { type: 'ExtensionRequest', id: 5 },
      all_extension_numbers_of_type: { type: 'string', id: 6 },
      list_services: { type: 'string', id: 7 },
    },
  },
  ExtensionRequest: { fields: { containing_type: { type: 'string', id: 1 }, extension_number: { type: 'int32', id: 2 } } },
  ServerReflectionResponse: {
    oneofs: { message_response: { oneof: ['file_descriptor_response', 'all_extension_numbers_response', 'list_services_response', 'error_response'] } },
    fields: {
      valid_host: { type: 'string', id: 1 },
      original_request: { type: 'ServerReflectionRequest', id: 2 },
      file_descriptor_response: { type: 'FileDescriptorResponse', id: 4 },
      all_extension_numbers_response: { type: 'ExtensionNumberResponse', id: 5 },
      list_services_response: { type: 'ListServiceResponse', id: 6 },
      error_response: { type: 'ErrorResponse', id: 7 },
    },
  },
  FileDescriptorResponse: { fields: { file_descriptor_proto: { rule: 'repeated', type: 'bytes', id: 1 } } },
  ExtensionNumberResponse: { fields: { base_type_name: { type: 'string', id: 1 }, extension_number: { rule: 'repeated', type: 'int32', id: 2 } } },
  ListServiceResponse: { fields: { service: { rule: 'repeated', type: 'ServiceResponse', id: 1 } } },
  ServiceResponse: { fields: { name: { type: 'string', id: 1 } } },
  ErrorResponse: { fields: { error_code: { type: 'int32', id: 1 }, error_message: { type: 'string', id: 2 } } },
  ServerReflection: { methods: { ServerReflectionInfo: { requestType: 'ServerReflectionRequest', requestStream: true, responseType: 'ServerReflectionResponse', responseStream: true } } },
};

const REFLECTION_VERSIONS = ['v1', 'v1alpha'] as const;
const packageOf = (version: string): string => `grpc.reflection.${version}`;

/** The reflection services' full names. */
export const REFLECTION_SERVICES: readonly string[] = REFLECTION_VERSIONS.map((version) => `${packageOf(version)}.ServerReflection`);

/** The reflection service of one version: its definition for grpc-js, and its file as reflection itself lists it. */
function reflectionPackage(version: string): { definition: ServiceDefinition; file: { name: string; bytes: Buffer; symbols: string[] } } {
  const json = { nested: { grpc: { nested: { reflection: { nested: { [version]: { nested: MESSAGES } } } } } } } as unknown as protobuf.INamespace;
  const definition = fromJSON(json, LOADER_OPTIONS)[`${packageOf(version)}.ServerReflection`] as ServiceDefinition;
  const root = protobuf.Root.fromJSON(json);
  const name = `grpc/reflection/${version}/reflection.proto`;
  const set = (root as unknown as { toDescriptor(syntax: string): { file: Array<{ name: string; package?: string }> } }).toDescriptor('proto3');
  const file = set.file.find((f) => f.package === packageOf(version));
  if (file === undefined) throw new Error(`reflection ${version}: no descriptor`);
  file.name = name;
  const bytes = Buffer.from(descriptor.FileDescriptorProto.encode(file as unknown as protobuf.Message).finish());
  const symbols = [`${packageOf(version)}.ServerReflection`, ...Object.keys(MESSAGES).map((type) => `${packageOf(version)}.${type}`)];
  return { definition, file: { name, bytes, symbols } };
}

/** Which file declares each symbol (packages' messages, enums, services, methods, nested types), and each file's imports. */
class DescriptorIndex {
  private readonly bytes = new Map<string, Buffer>();
  private readonly imports = new Map<string, string[]>();
  private readonly symbols = new Map<string, string>();
  private readonly messages = new Set<string>();

  add(name: string, bytes: Buffer, symbols?: string[]): void {
    this.bytes.set(name, bytes);
    const file = descriptor.FileDescriptorProto.decode(bytes) as unknown as FileShape;
    this.imports.set(name, file.dependency ?? []);
    for (const symbol of symbols ?? symbolsOf(file)) this.symbols.set(symbol, name);
    for (const message of messagesOf(file)) this.messages.add(message);
  }

  isMessage(symbol: string): boolean {
    return this.messages.has(symbol);
  }

  fileOf(symbol: string): string | undefined {
    const exact = this.symbols.get(symbol);
    if (exact !== undefined) return exact;
    // a method (`pkg.Service.Method`) or a field is in its parent's file
    const parent = symbol.lastIndexOf('.');
    return parent > 0 ? this.symbols.get(symbol.slice(0, parent)) : undefined;
  }

  /** The file and every file it imports, transitively, the file first (what reflection clients expect). */
  withImports(name: string): Buffer[] | undefined {
    if (!this.bytes.has(name)) return undefined;
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file) || !this.bytes.has(file)) return;
      seen.add(file);
      for (const dependency of this.imports.get(file) ?? []) visit(dependency);
    };
    visit(name);
    return [...seen].map((file) => this.bytes.get(file) as Buffer);
  }
}

interface MessageShape {
  name?: string;
  nestedType?: MessageShape[];
  enumType?: Array<{ name?: string }>;
}
interface FileShape {
  package?: string;
  dependency?: string[];
  messageType?: MessageShape[];
  enumType?: Array<{ name?: string }>;
  service?: Array<{ name?: string; method?: Array<{ name?: string }> }>;
}

function symbolsOf(file: FileShape): string[] {
  const prefix = file.package ? `${file.package}.` : '';
  const out: string[] = [];
  const message = (m: MessageShape, scope: string): void => {
    const name = `${scope}${m.name}`;
    out.push(name);
    for (const e of m.enumType ?? []) out.push(`${name}.${e.name}`);
    for (const nested of m.nestedType ?? []) message(nested, `${name}.`);
  };
  for (const m of file.messageType ?? []) message(m, prefix);
  for (const e of file.enumType ?? []) out.push(`${prefix}${e.name}`);
  for (const s of file.service ?? []) {
    out.push(`${prefix}${s.name}`);
    for (const method of s.method ?? []) out.push(`${prefix}${s.name}.${method.name}`);
  }
  return out;
}

/** A file's message types by full name, nested ones included. */
function messagesOf(file: FileShape): string[] {
  const out: string[] = [];
  const message = (m: MessageShape, scope: string): void => {
    out.push(`${scope}${m.name}`);
    for (const nested of m.nestedType ?? []) message(nested, `${scope}${m.name}.`);
  };
  for (const m of file.messageType ?? []) message(m, file.package ? `${file.package}.` : '');
  return out;
}

type Request = { host?: string; message_request?: string } & Record<string, unknown>;

/**
 * Server reflection, grpc.reflection.v1 and v1alpha, answered from the build's file descriptors:
 * every file with its complete imports (well-known types included), so that clients can call what
 * they describe. Our own implementation rather than @grpc/reflection, whose descriptors, taken from
 * proto-loader, lack the imports of well-known types.
 */
export function reflectionServices(files: Record<string, string>, services: readonly string[]): Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }> {
  const index = new DescriptorIndex();
  for (const [name, base64] of Object.entries(files)) index.add(name, Buffer.from(base64, 'base64'));
  const versions = REFLECTION_VERSIONS.map(reflectionPackage);
  for (const { file } of versions) index.add(file.name, file.bytes, file.symbols);
  const listed = [...services, ...REFLECTION_SERVICES].sort().map((name) => ({ name }));

  const answer = (request: Request): Record<string, unknown> => {
    const base = { valid_host: request.host ?? '', original_request: request };
    const files = (found: Buffer[] | undefined, what: string): Record<string, unknown> =>
      found === undefined ? { ...base, error_response: { error_code: GRPC.NOT_FOUND, error_message: `${what} not found` } } : { ...base, file_descriptor_response: { file_descriptor_proto: found } };
    switch (request.message_request) {
      case 'list_services':
        return { ...base, list_services_response: { service: listed } };
      case 'file_by_filename':
        return files(index.withImports(String(request.file_by_filename)), `file ${String(request.file_by_filename)}`);
      case 'file_containing_symbol': {
        const symbol = String(request.file_containing_symbol).replace(/^\./, '');
        const file = index.fileOf(symbol);
        return files(file === undefined ? undefined : index.withImports(file), `symbol ${symbol}`);
      }
      case 'all_extension_numbers_of_type': {
        // proto3 declares no extensions: a message type has none; a name that is no message type is not found (as grpc-go answers)
        const type = String(request.all_extension_numbers_of_type).replace(/^\./, '');
        if (!index.isMessage(type)) return { ...base, error_response: { error_code: GRPC.NOT_FOUND, error_message: `type ${type} not found` } };
        return { ...base, all_extension_numbers_response: { base_type_name: type, extension_number: [] } };
      }
      default:
        return { ...base, error_response: { error_code: GRPC.UNIMPLEMENTED, error_message: `${request.message_request ?? 'an empty request'} is not supported` } };
    }
  };
  const info: handleBidiStreamingCall<Request, Record<string, unknown>> = (call) => {
    call.on('data', (request: Request) => call.write(answer(request)));
    call.on('end', () => call.end());
  };
  return versions.map(({ definition }) => ({ definition, implementation: { ServerReflectionInfo: info } }));
}
