/**
 * What `mock build` writes for the .proto files of grpc.proto_dir (`<build>/grpc.json`), read by the
 * gRPC server at start: the compiler parses, the runtime never does.
 */
export interface GrpcBuildOutput {
  /** protobufjs `Root.toJSON()` of every file that parsed (types, services, options such as google.api.http). */
  root: Record<string, unknown>;
  /** Every file the services need, by its import path (`route_guide.proto`, `google/protobuf/timestamp.proto`): a serialized FileDescriptorProto, base64, with its `dependency` list complete (well-known types included). */
  files: Record<string, string>;
  /** The services served (grpc.excluded_services left out), sorted by full name. */
  services: GrpcServiceInfo[];
  /** .proto files that did not parse or resolve: reported by the build, left out, the rest serve. */
  problems: Array<{ file: string; line?: number; column?: number; message: string }>;
}

export interface GrpcServiceInfo {
  /** Full name: `routeguide.RouteGuide`. */
  name: string;
  /** The file declaring it (a key of `files`). */
  file: string;
  methods: GrpcMethodInfo[];
}

export interface GrpcMethodInfo {
  name: string;
  /** Full names of the message types: `routeguide.Point`. */
  requestType: string;
  responseType: string;
  clientStreaming: boolean;
  serverStreaming: boolean;
  /** The google.api.http annotation, when the method has one: `{ get: '/v1/features/{id}', body?, response_body?, additional_bindings? }`. */
  http?: Record<string, unknown>;
}
