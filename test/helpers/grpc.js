// A gRPC client that is not grpc-js: node:http2 and protobufjs, for reflection (a client on another
// library than the server's must be able to list, describe and call what reflection describes).
import http2 from 'node:http2';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { corpus } from './cli.js';

/** The message types of grpc.reflection.<version> from the corpus's reflection.proto. */
export function reflectionTypes(version) {
  const text = readFileSync(path.join(corpus, 'proto', 'grpc', 'reflection', 'v1', 'reflection.proto'), 'utf8').replace('package grpc.reflection.v1;', `package grpc.reflection.${version};`);
  const root = protobuf.parse(text, { keepCase: true }).root;
  return { request: root.lookupType(`grpc.reflection.${version}.ServerReflectionRequest`), response: root.lookupType(`grpc.reflection.${version}.ServerReflectionResponse`) };
}

const frame = (bytes) => {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([head, bytes]);
};

function frames(buffer) {
  const out = [];
  for (let at = 0; at + 5 <= buffer.length; ) {
    const length = buffer.readUInt32BE(at + 1);
    out.push(buffer.subarray(at + 5, at + 5 + length));
    at += 5 + length;
  }
  return out;
}

/** One call over HTTP/2: the encoded messages out, the messages back and the status. */
export function rawCall(address, method, messages) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://${address}`);
    session.on('error', reject);
    const request = session.request({ ':method': 'POST', ':path': method, 'content-type': 'application/grpc', te: 'trailers' });
    const chunks = [];
    let status;
    let statusMessage;
    request.on('response', (headers) => {
      status ??= headers['grpc-status'];
      statusMessage ??= headers['grpc-message'];
    });
    request.on('trailers', (trailers) => {
      status = trailers['grpc-status'];
      statusMessage = trailers['grpc-message'];
    });
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      session.close();
      resolve({ status: Number(status), message: statusMessage, messages: frames(Buffer.concat(chunks)) });
    });
    request.on('error', reject);
    for (const message of messages) request.write(frame(message));
    request.end();
  });
}

/** Asks reflection (v1 or v1alpha) the questions in order; resolves with the decoded answers. */
export async function reflect(address, version, questions) {
  const { request, response } = reflectionTypes(version);
  const encoded = questions.map((q) => Buffer.from(request.encode(request.fromObject(q)).finish()));
  const result = await rawCall(address, `/grpc.reflection.${version}.ServerReflection/ServerReflectionInfo`, encoded);
  return { status: result.status, answers: result.messages.map((bytes) => response.toObject(response.decode(bytes), { oneofs: true, bytes: Buffer })) };
}

/** The protobufjs root that file descriptors build (throws when a file lacks an import it needs). */
export function rootOf(fileDescriptorProtos) {
  const files = fileDescriptorProtos.map((bytes) => descriptor.FileDescriptorProto.decode(bytes));
  const root = protobuf.Root.fromDescriptor({ file: files });
  root.resolveAll();
  return { root, names: files.map((f) => f.name) };
}
