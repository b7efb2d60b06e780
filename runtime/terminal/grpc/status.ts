import protobuf from 'protobufjs';
import { GRPC } from '../../../common/grpc-status.js';

/**
 * google.rpc.Status and the standard error details (google/rpc/status.proto,
 * google/rpc/error_details.proto), defined here so that rich errors need no .proto of the user's:
 * a rule's `details` entries are packed as google.protobuf.Any by their `@type`, the Status is
 * serialized for the `grpc-status-details-bin` trailer.
 */
const DURATION = { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } };

const RPC_JSON = {
  nested: {
    google: {
      nested: {
        protobuf: {
          nested: {
            Any: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } },
            Duration: DURATION,
          },
        },
        rpc: {
          nested: {
            Status: {
              fields: {
                code: { type: 'int32', id: 1 },
                message: { type: 'string', id: 2 },
                details: { rule: 'repeated', type: 'google.protobuf.Any', id: 3 },
              },
            },
            ErrorInfo: {
              fields: { reason: { type: 'string', id: 1 }, domain: { type: 'string', id: 2 }, metadata: { keyType: 'string', type: 'string', id: 3 } },
            },
            RetryInfo: { fields: { retry_delay: { type: 'google.protobuf.Duration', id: 1 } } },
            DebugInfo: { fields: { stack_entries: { rule: 'repeated', type: 'string', id: 1 }, detail: { type: 'string', id: 2 } } },
            QuotaFailure: {
              fields: { violations: { rule: 'repeated', type: 'Violation', id: 1 } },
              nested: {
                Violation: {
                  fields: {
                    subject: { type: 'string', id: 1 },
                    description: { type: 'string', id: 2 },
                    api_service: { type: 'string', id: 3 },
                    quota_metric: { type: 'string', id: 4 },
                    quota_id: { type: 'string', id: 5 },
                    quota_dimensions: { keyType: 'string', type: 'string', id: 6 },
                    quota_value: { type: 'int64', id: 7 },
                    future_quota_value: { type: 'int64', id: 8 },
                  },
                },
              },
            },
            PreconditionFailure: {
              fields: { violations: { rule: 'repeated', type: 'Violation', id: 1 } },
              nested: { Violation: { fields: { type: { type: 'string', id: 1 }, subject: { type: 'string', id: 2 }, description: { type: 'string', id: 3 } } } },
            },
            BadRequest: {
              fields: { field_violations: { rule: 'repeated', type: 'FieldViolation', id: 1 } },
              nested: {
                FieldViolation: {
                  fields: {
                    field: { type: 'string', id: 1 },
                    description: { type: 'string', id: 2 },
                    reason: { type: 'string', id: 3 },
                    localized_message: { type: 'LocalizedMessage', id: 4 },
                  },
                },
              },
            },
            RequestInfo: { fields: { request_id: { type: 'string', id: 1 }, serving_data: { type: 'string', id: 2 } } },
            ResourceInfo: {
              fields: {
                resource_type: { type: 'string', id: 1 },
                resource_name: { type: 'string', id: 2 },
                owner: { type: 'string', id: 3 },
                description: { type: 'string', id: 4 },
              },
            },
            Help: {
              fields: { links: { rule: 'repeated', type: 'Link', id: 1 } },
              nested: { Link: { fields: { description: { type: 'string', id: 1 }, url: { type: 'string', id: 2 } } } },
            },
            LocalizedMessage: { fields: { locale: { type: 'string', id: 1 }, message: { type: 'string', id: 2 } } },
          },
        },
      },
    },
  },
};

/** The root holding google.rpc.Status and the error detail types (keepCase field names). */
export const RPC_ROOT = protobuf.Root.fromJSON(RPC_JSON as protobuf.INamespace);
RPC_ROOT.resolveAll();
export const STATUS_TYPE = RPC_ROOT.lookupType('google.rpc.Status');

/** The error detail types a rule's `@type` names without a .proto: `google.rpc.ErrorInfo` … */
export const DETAIL_TYPES = Object.keys((RPC_JSON.nested.google.nested.rpc as { nested: Record<string, unknown> }).nested)
  .filter((name) => name !== 'Status')
  .map((name) => `google.rpc.${name}`);

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
