import protobuf from 'protobufjs';
import { GRPC } from '../../../common/grpc-status.js';
import { ALWAYS_BUNDLED, bundledProto } from '../../../common/grpc/bundled-protos.js';

/**
 * google.rpc.Status and the standard error details, read from the .proto text every build bundles
 * (common/grpc/bundled-protos.ts), so that rich errors need no .proto of the user's: a rule's
 * `details` entries are packed as google.protobuf.Any by their `@type`, the Status is serialized
 * for the `grpc-status-details-bin` trailer. Field names as written (keepCase).
 */
export const RPC_ROOT = new protobuf.Root();
for (const file of ['google/protobuf/any.proto', 'google/protobuf/duration.proto', ...ALWAYS_BUNDLED]) protobuf.parse(bundledProto(file) as string, RPC_ROOT, { keepCase: true });
RPC_ROOT.resolveAll();
export const STATUS_TYPE = RPC_ROOT.lookupType('google.rpc.Status');

/** The error detail types a rule's `@type` names without a .proto: `google.rpc.ErrorInfo` … */
export const DETAIL_TYPES = (RPC_ROOT.lookup('google.rpc') as protobuf.Namespace).nestedArray
  .filter((type) => type instanceof protobuf.Type && type.name !== 'Status')
  .map((type) => `google.rpc.${type.name}`);

/** A status code from a name (NOT_FOUND, not_found) or a number; throws naming what is allowed. */
export function statusCode(code: unknown): number {
  if (typeof code === 'number') {
    if (Number.isInteger(code) && code >= 1 && code <= 16) return code;
    throw new Error(`code ${code} is not a gRPC error status: use 1 to 16 or a name such as NOT_FOUND`);
  }
  if (typeof code === 'string') {
    const name = code.trim().toUpperCase();
    if (/^\d+$/.test(name)) return statusCode(Number(name));
    if (Object.hasOwn(GRPC, name) && name !== 'OK') return GRPC[name as keyof typeof GRPC];
    throw new Error(`unknown status ${JSON.stringify(code)}: use one of ${Object.keys(GRPC).filter((n) => n !== 'OK').join(', ')} or its number`);
  }
  throw new Error(`code must be a status name such as NOT_FOUND or a number (got ${JSON.stringify(code)})`);
}

/** A packed detail: the Any's type_url and the message's bytes. */
export interface PackedDetail {
  type_url: string;
  value: Uint8Array;
}

/** The serialized google.rpc.Status for `grpc-status-details-bin`. */
export function encodeStatus(code: number, message: string, details: readonly PackedDetail[]): Buffer {
  const status = STATUS_TYPE.fromObject({ code, message, details: details.map((d) => ({ type_url: d.type_url, value: d.value })) });
  return Buffer.from(STATUS_TYPE.encode(status).finish());
}

/** Decodes a `grpc-status-details-bin` value (tests, tools): the Status with each detail unpacked when its type is known. */
export function decodeStatus(bytes: Uint8Array, root?: protobuf.Root): { code: number; message: string; details: Array<Record<string, unknown>> } {
  const status = STATUS_TYPE.toObject(STATUS_TYPE.decode(bytes), { longs: String, enums: String, defaults: true }) as {
    code: number;
    message: string;
    details: PackedDetail[];
  };
  const details = status.details.map((any) => {
    const name = any.type_url.slice(any.type_url.lastIndexOf('/') + 1);
    const type = lookupType(RPC_ROOT, name) ?? (root === undefined ? undefined : lookupType(root, name));
    if (type === undefined) return { '@type': any.type_url, value: Buffer.from(any.value).toString('base64') };
    return { '@type': any.type_url, ...type.toObject(type.decode(any.value), { longs: String, enums: String, defaults: false }) };
  });
  return { code: status.code, message: status.message, details };
}

export function lookupType(root: protobuf.Root, name: string): protobuf.Type | undefined {
  try {
    const found = root.lookup(name.startsWith('.') ? name : `.${name}`);
    return found instanceof protobuf.Type ? found : undefined;
  } catch {
    return undefined;
  }
}
