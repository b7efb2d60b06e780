import protobuf from 'protobufjs';
import { grpcStatusName, httpOfGrpc } from '../../../../common/grpc-status.js';
import { BridgeRefusal } from './request-json.js';

type Plain = Record<string, unknown>;

/**
 * The protocols of gRPC's browser and modern clients that the HTTP bridge speaks beside its JSON
 * mapping, by the request's content type: gRPC-Web (binary, or base64 `-text`) and Connect (unary
 * as the bare message in proto or JSON, streaming as enveloped messages).
 */
export type Wire = { kind: 'grpc-web'; text: boolean } | { kind: 'connect'; json: boolean; streaming: boolean };

const OBJECT_OPTIONS = { longs: String, enums: String, bytes: Buffer, defaults: true, oneofs: true };

/**
 * The wire a request speaks; undefined: the bridge's own JSON mapping. Connect's unary JSON shares
 * `application/json` with it and is told by Connect-Protocol-Version, which Connect clients send.
 */
export function wireOf(headers: Record<string, string>): Wire | undefined {
  const type = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  switch (type) {
    case 'application/grpc-web':
    case 'application/grpc-web+proto':
      return { kind: 'grpc-web', text: false };
    case 'application/grpc-web-text':
    case 'application/grpc-web-text+proto':
      return { kind: 'grpc-web', text: true };
    case 'application/proto':
      return { kind: 'connect', json: false, streaming: false };
    case 'application/connect+proto':
      return { kind: 'connect', json: false, streaming: true };
    case 'application/connect+json':
      return { kind: 'connect', json: true, streaming: true };
    case 'application/json':
      return headers['connect-protocol-version'] === undefined ? undefined : { kind: 'connect', json: true, streaming: false };
    default:
      return undefined;
  }
}

/** Length-prefixed messages (gRPC's framing, which gRPC-Web and Connect's streams share): flags, then the bytes. */
function envelopes(body: Buffer): Array<{ flags: number; bytes: Buffer }> {
  const out: Array<{ flags: number; bytes: Buffer }> = [];
  let at = 0;
  while (at < body.length) {
    if (body.length - at < 5) throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_REQUEST', { reason: 'a message envelope is cut short (5 bytes of flags and length come first)' });
    const length = body.readUInt32BE(at + 1);
    if (at + 5 + length > body.length) throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_REQUEST', { reason: `a message envelope announces ${length} bytes, more than the body holds` });
    out.push({ flags: body[at], bytes: body.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return out;
}

export function envelope(flags: number, bytes: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([head, bytes]);
}

/** The request messages a body holds, in the object form the mock takes; what does not decode is the client's to fix (400). */
export function requestMessages(wire: Wire, body: Buffer | undefined, type: protobuf.Type, fromJson: (json: unknown) => Plain): Plain[] {
  const bytes = body === undefined ? Buffer.alloc(0) : wire.kind === 'grpc-web' && wire.text ? Buffer.from(body.toString('latin1'), 'base64') : body;
  const decode = (message: Buffer): Plain => {
    try {
      if (wire.kind === 'connect' && wire.json) return fromJson(message.length === 0 ? {} : JSON.parse(message.toString('utf8')));
      return type.toObject(type.decode(message), OBJECT_OPTIONS);
    } catch (e) {
      if (e instanceof BridgeRefusal) throw e;
      throw BridgeRefusal.of('MOCK_ERR_GRPC_BRIDGE_REQUEST', { reason: `the request message does not decode as ${type.fullName.slice(1)}: ${(e as Error).message}` });
    }
  };
  if (wire.kind === 'connect' && !wire.streaming) return [decode(bytes)];
  return envelopes(bytes)
    .filter((frame) => (frame.flags & 0x80) === 0)
    .map((frame) => decode(frame.bytes));
}

/** A response message on the wire: the proto bytes, or Connect's JSON. */
export function encodeMessage(wire: Wire, type: protobuf.Type, message: object, toJson: (message: object) => unknown): Buffer {
  if (wire.kind === 'connect' && wire.json) return Buffer.from(JSON.stringify(toJson(message)));
  return Buffer.from(type.encode(type.fromObject(message)).finish());
}

/** The response's content type: the request's protocol and codec. */
export function contentTypeOf(wire: Wire): string {
  if (wire.kind === 'grpc-web') return wire.text ? 'application/grpc-web-text+proto' : 'application/grpc-web+proto';
  if (wire.streaming) return wire.json ? 'application/connect+json' : 'application/connect+proto';
  return wire.json ? 'application/json' : 'application/proto';
}

/** gRPC-Web's trailers, as the body's last frame (flag 0x80). */
export function grpcWebTrailers(code: number, message: string): Buffer {
  return envelope(0x80, Buffer.from(`grpc-status: ${code}\r\ngrpc-message: ${encodeURIComponent(message)}\r\n`));
}

/** Connect's name of a status code (`not_found`; CANCELLED is `canceled`). */
export const connectCode = (code: number): string => (code === 1 ? 'canceled' : grpcStatusName(code).toLowerCase());

/** Connect's error body ({code, message}) and the HTTP status its unary answers carry (the Connect protocol's table). */
export function connectError(code: number, message: string): { status: number; body: string } {
  return { status: httpOfGrpc(code), body: JSON.stringify({ code: connectCode(code), message }) };
}

/** A call that fails before or instead of its messages, as its wire says it: gRPC-Web's trailers-only answer, Connect's error. */
export function wireFailure(wire: Wire, code: number, message: string): { status: number; headers: Array<[string, string]>; body: string | Buffer } {
  if (wire.kind === 'grpc-web') {
    return {
      status: 200,
      headers: [
        ['content-type', contentTypeOf(wire)],
        ['grpc-status', String(code)],
        ['grpc-message', encodeURIComponent(message)],
      ],
      body: '',
    };
  }
  if (wire.streaming) return { status: 200, headers: [['content-type', contentTypeOf(wire)]], body: connectEnd(code, message) };
  const error = connectError(code, message);
  return { status: error.status, headers: [['content-type', 'application/json']], body: error.body };
}

/** Connect's end of a stream (flag 0x02): `{}`, or the error. */
export function connectEnd(code: number, message: string): Buffer {
  return envelope(0x02, Buffer.from(code === 0 ? '{}' : JSON.stringify({ error: { code: connectCode(code), message } })));
}

/** Text gRPC-Web carries base64 of the frames. */
export const webBody = (wire: Wire, bytes: Buffer): Buffer => (wire.kind === 'grpc-web' && wire.text ? Buffer.from(bytes.toString('base64')) : bytes);
