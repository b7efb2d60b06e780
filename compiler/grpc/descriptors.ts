import protobuf from 'protobufjs';
import { bundledProto } from '../../common/grpc/bundled-protos.js';
import { httpRule } from './http-rule.js';
import type { ProtoSource } from './proto-source.js';

// FileDescriptorProtos written here rather than by protobufjs' Root#toDescriptor, which makes one
// file per package (not per .proto file), leaves `dependency` empty (the reflection bug the issue
// names: a client cannot call a service whose file imports google/protobuf/timestamp.proto), names
// map entries after the field (`Tags` instead of protoc's `TagsEntry`), writes relative type names
// and drops the google.api.http option.

/** FieldDescriptorProto.Type of protobufjs' scalar type names. */
const SCALAR: Readonly<Record<string, number>> = {
  double: 1,
  float: 2,
  int64: 3,
  uint64: 4,
  int32: 5,
  fixed64: 6,
  fixed32: 7,
  bool: 8,
  string: 9,
  bytes: 12,
  uint32: 13,
  sfixed32: 15,
  sfixed64: 16,
  sint32: 17,
  sint64: 18,
};
const TYPE_GROUP = 10;
const TYPE_MESSAGE = 11;
const TYPE_ENUM = 14;
const LABEL_OPTIONAL = 1;
const LABEL_REQUIRED = 2;
const LABEL_REPEATED = 3;

type Plain = Record<string, unknown>;

/** The FileDescriptorProto (plain object, descriptor.proto's field names in camelCase) of one file of the root. */
export function fileDescriptor(root: protobuf.Root, source: ProtoSource): Plain {
  const messageType: Plain[] = [];
  const enumType: Plain[] = [];
  const service: Plain[] = [];
  const extension: Plain[] = [];
  const walk = (ns: protobuf.NamespaceBase): void => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Type) {
        if (nested.filename === source.importPath) messageType.push(message(nested));
      } else if (nested instanceof protobuf.Enum) {
        if (nested.filename === source.importPath) enumType.push(enumeration(nested));
      } else if (nested instanceof protobuf.Service) {
        if (nested.filename === source.importPath) service.push(serviceDescriptor(nested));
      } else if (nested instanceof protobuf.Field) {
        if (nested.filename === source.importPath) extension.push(field(nested));
      } else if (nested instanceof protobuf.Namespace) walk(nested);
    }
  };
  walk(root);
  return {
    name: source.importPath,
    ...(source.pkg === '' ? {} : { package: source.pkg }),
    dependency: source.imports,
    messageType,
    enumType,
    service,
    extension,
    ...(fileOptions(root, source)),
    ...(source.syntax === 'proto2' ? {} : { syntax: source.syntax }),
  };
}

/** The FileDescriptorProto's bytes, base64. */
export function encodeFileDescriptor(descriptor: Plain): string {
  const type = descriptorTypes().FileDescriptorProto;
  const message = type.fromObject(descriptor);
  return Buffer.from(type.encode(message).finish()).toString('base64');
}

let types: { FileDescriptorProto: protobuf.Type } | undefined;

/** descriptor.proto with google.api.http registered on MethodOptions, from the bundled texts (parsed once). */
function descriptorTypes(): { FileDescriptorProto: protobuf.Type } {
  if (types !== undefined) return types;
  const root = new protobuf.Root();
  for (const file of ['google/protobuf/descriptor.proto', 'google/api/http.proto', 'google/api/annotations.proto']) {
    protobuf.parse(bundledProto(file) as string, root, { keepCase: false });
  }
  root.resolveAll();
  types = { FileDescriptorProto: root.lookupType('google.protobuf.FileDescriptorProto') };
  return types;
}

/** File options the files set (java_package, go_package …), read from the file's text: protobufjs keeps them on the package, shared by every file of it. */
function fileOptions(root: protobuf.Root, source: ProtoSource): Plain {
  void root;
  const options: Plain = {};
  const known: Readonly<Record<string, string>> = {
    java_package: 'javaPackage',
    java_outer_classname: 'javaOuterClassname',
    java_multiple_files: 'javaMultipleFiles',
    go_package: 'goPackage',
    objc_class_prefix: 'objcClassPrefix',
    csharp_namespace: 'csharpNamespace',
    cc_enable_arenas: 'ccEnableArenas',
    php_namespace: 'phpNamespace',
    ruby_package: 'rubyPackage',
    swift_prefix: 'swiftPrefix',
  };
  const pattern = /^\s*option\s+([a-z_]+)\s*=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|true|false)\s*;/gm;
  for (const match of source.text.matchAll(pattern)) {
    const key = known[match[1]];
    if (key === undefined) continue;
    const raw = match[2];
    options[key] = raw === 'true' ? true : raw === 'false' ? false : raw.slice(1, -1);
  }
  return Object.keys(options).length === 0 ? {} : { options };
}

function message(type: protobuf.Type): Plain {
  const realOneofs = type.oneofsArray.filter((oneof) => !isSynthetic(oneof));
  const oneofs = [...realOneofs, ...type.oneofsArray.filter(isSynthetic)];
  const nestedType: Plain[] = [];
  const enumType: Plain[] = [];
  const extension: Plain[] = [];
  const fields: Plain[] = [];
  for (const f of type.fieldsArray) {
    if (f.declaringField) continue; // an extension's copy on the type it extends
    const descriptor = field(f);
    if (f instanceof protobuf.MapField) {
      const entry = mapEntryName(f.name);
      nestedType.push({
        name: entry,
        field: [
          { name: 'key', number: 1, label: LABEL_OPTIONAL, type: SCALAR[f.keyType], jsonName: 'key' },
          { name: 'value', number: 2, label: LABEL_OPTIONAL, ...valueType(f), jsonName: 'value' },
        ],
        options: { mapEntry: true },
      });
      Object.assign(descriptor, { label: LABEL_REPEATED, type: TYPE_MESSAGE, typeName: `${type.fullName}.${entry}` });
    }
    if (f.partOf) descriptor.oneofIndex = oneofs.indexOf(f.partOf);
    fields.push(descriptor);
  }
  for (const nested of type.nestedArray) {
    if (nested instanceof protobuf.Type) nestedType.push(message(nested));
    else if (nested instanceof protobuf.Enum) enumType.push(enumeration(nested));
    else if (nested instanceof protobuf.Field) extension.push(field(nested));
  }
  const reserved = reservations(type.reserved, true);
  return {
    name: type.name,
    field: fields,
    nestedType,
    enumType,
    extension,
    ...(type.extensions && type.extensions.length > 0 ? { extensionRange: type.extensions.map(([start, end]) => ({ start, end: end + 1 })) } : {}),
    oneofDecl: oneofs.map((oneof) => ({ name: oneof.name })),
    ...reserved,
    ...(type.options?.deprecated === true ? { options: { deprecated: true } } : {}),
  };
}

function isSynthetic(oneof: protobuf.OneOf): boolean {
  return oneof.fieldsArray.length === 1 && oneof.fieldsArray[0].options?.proto3_optional === true;
}

function field(f: protobuf.Field): Plain {
  f.resolve();
  const descriptor: Plain = {
    name: f.name,
    number: f.id,
    label: f.repeated ? LABEL_REPEATED : f.required ? LABEL_REQUIRED : LABEL_OPTIONAL,
    ...valueType(f),
    jsonName: jsonName(f),
  };
  if (f.extend !== undefined) {
    const extended = f.extensionField?.parent ?? f.parent?.lookup(f.extend);
    descriptor.extendee = extended ? extended.fullName : f.extend;
  }
  if (f.options?.proto3_optional === true) descriptor.proto3Optional = true;
  const defaultValue = f.options?.default;
  if (defaultValue !== undefined) descriptor.defaultValue = String(defaultValue);
  const options: Plain = {};
  if (f.options?.packed !== undefined) options.packed = f.options.packed === true;
  if (f.options?.deprecated === true) options.deprecated = true;
  if (Object.keys(options).length > 0) descriptor.options = options;
  return descriptor;
}

/** type and typeName of a field's (or a map's value's) type. */
function valueType(f: protobuf.Field): Plain {
  const scalar = SCALAR[f.type];
  if (scalar !== undefined) return { type: scalar };
  const resolved = f.resolvedType;
  if (resolved instanceof protobuf.Enum) return { type: TYPE_ENUM, typeName: resolved.fullName };
  return { type: f.delimited ? TYPE_GROUP : TYPE_MESSAGE, typeName: resolved ? resolved.fullName : f.type };
}

function enumeration(e: protobuf.Enum): Plain {
  const options: Plain = {};
  if (e.options?.allow_alias === true) options.allowAlias = true;
  if (e.options?.deprecated === true) options.deprecated = true;
  return {
    name: e.name,
    value: Object.entries(e.values).map(([name, number]) => ({ name, number })),
    ...reservations(e.reserved, false),
    ...(Object.keys(options).length === 0 ? {} : { options }),
  };
}

function serviceDescriptor(service: protobuf.Service): Plain {
  return {
    name: service.name,
    method: service.methodsArray.map((method) => {
      method.resolve();
      const http = httpRule(method);
      const options: Plain = {};
      if (method.options?.deprecated === true) options.deprecated = true;
      if (http !== undefined) options['.google.api.http'] = camelCased(http);
      return {
        name: method.name,
        inputType: (method.resolvedRequestType as protobuf.Type).fullName,
        outputType: (method.resolvedResponseType as protobuf.Type).fullName,
        ...(method.requestStream ? { clientStreaming: true } : {}),
        ...(method.responseStream ? { serverStreaming: true } : {}),
        ...(Object.keys(options).length === 0 ? {} : { options }),
      };
    }),
  };
}

/** reserved ranges (end exclusive for messages, inclusive for enums) and names. */
function reservations(reserved: Array<number[] | string> | undefined, exclusiveEnd: boolean): Plain {
  if (reserved === undefined || reserved.length === 0) return {};
  const ranges = reserved.filter((r): r is number[] => Array.isArray(r)).map(([start, end]) => ({ start, end: exclusiveEnd ? end + 1 : end }));
  const names = reserved.filter((r): r is string => typeof r === 'string');
  return { ...(ranges.length > 0 ? { reservedRange: ranges } : {}), ...(names.length > 0 ? { reservedName: names } : {}) };
}

/** protoc's name of a map field's entry type: `tag_counts` -> `TagCountsEntry`. */
function mapEntryName(name: string): string {
  return `${name.replace(/(^|_)([a-z])/g, (_m, _u: string, c: string) => c.toUpperCase()).replace(/_/g, '')}Entry`;
}

/** protoc's default json_name: `tag_counts` -> `tagCounts`; a json_name option wins. */
function jsonName(f: protobuf.Field): string {
  const given = f.options?.json_name;
  if (typeof given === 'string') return given;
  return f.name.replace(/_([a-z0-9])/gi, (_m, c: string) => c.toUpperCase()).replace(/_/g, '');
}

/** An option's message in descriptor.proto's camelCase field names (the encoding root's). */
function camelCased(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelCased);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()), camelCased(inner)]));
}
