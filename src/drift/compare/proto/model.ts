import type protobuf from 'protobufjs';

/** What the .proto checks compare of one side: its services, messages and enums by full name (`package.Name`). */
export interface ProtoModel {
  services: Map<string, Map<string, MethodShape>>;
  messages: Map<string, MessageShape>;
  enums: Map<string, Map<string, number>>;
}

export interface MethodShape {
  requestType: string;
  responseType: string;
  clientStreaming: boolean;
  serverStreaming: boolean;
}

export interface FieldShape {
  name: string;
  number: number;
  /** A scalar's name, or the full name of the message or enum it holds; `map<key, value>` for a map. */
  type: string;
  /** `repeated`, `required`, `optional` (proto3's explicit presence), `map` or `singular`. */
  label: string;
}

export interface MessageShape {
  byNumber: Map<number, FieldShape>;
  byName: Map<string, FieldShape>;
}

/**
 * The definitions of a resolved protobufjs root that come from `files` (import paths): the
 * well-known types bundled with the build, and files not named, are left out.
 */
export function protoModel(root: protobuf.Root, files: ReadonlySet<string>, lib: typeof protobuf): ProtoModel {
  const model: ProtoModel = { services: new Map(), messages: new Map(), enums: new Map() };
  const walk = (ns: protobuf.NamespaceBase): void => {
    for (const nested of ns.nestedArray) {
      const mine = files.has(nested.filename ?? '');
      const name = nested.fullName.slice(1);
      if (nested instanceof lib.Service) {
        if (mine) model.services.set(name, new Map(nested.methodsArray.map((method) => [method.name, methodShape(method)])));
        continue;
      }
      if (nested instanceof lib.Enum) {
        if (mine) model.enums.set(name, new Map(Object.entries(nested.values)));
        continue;
      }
      if (nested instanceof lib.Type && mine) {
        const fields = nested.fieldsArray.map((field) => fieldShape(field, lib));
        model.messages.set(name, { byNumber: new Map(fields.map((f) => [f.number, f])), byName: new Map(fields.map((f) => [f.name, f])) });
      }
      if (nested instanceof lib.Namespace) walk(nested);
    }
  };
  walk(root);
  return model;
}

const typeName = (resolved: protobuf.Type | protobuf.Enum | null, type: string): string => (resolved === null ? type : resolved.fullName.slice(1));

function methodShape(method: protobuf.Method): MethodShape {
  return {
    requestType: typeName(method.resolvedRequestType, method.requestType),
    responseType: typeName(method.resolvedResponseType, method.responseType),
    clientStreaming: method.requestStream === true,
    serverStreaming: method.responseStream === true,
  };
}

function fieldShape(field: protobuf.Field, lib: typeof protobuf): FieldShape {
  const value = typeName(field.resolvedType, field.type);
  if (field instanceof lib.MapField) return { name: field.name, number: field.id, type: `map<${field.keyType}, ${value}>`, label: 'map' };
  // protobufjs keeps `optional` only where proto3 writes it (explicit presence); proto2's reads as singular
  const label = field.repeated ? 'repeated' : field.required ? 'required' : field.options?.proto3_optional === true ? 'optional' : 'singular';
  return { name: field.name, number: field.id, type: value, label };
}
