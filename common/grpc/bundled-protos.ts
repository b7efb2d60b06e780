import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The .proto files every project may import without having them (no protoc, no include path): the
 * well-known types, google/api/annotations.proto and http.proto (google.api.http, read by the HTTP
 * bridge), and google/rpc/status.proto and error_details.proto (rich errors, always in a build).
 * Written here from the published definitions (same packages, names and field numbers, so the
 * bytes on the wire and the descriptors reflection serves are those of the originals); comments
 * left out. A file of the same import path in grpc.proto_dir takes precedence, as a first include
 * path does for protoc. descriptor.proto, api.proto, type.proto and source_context.proto are read
 * from protobufjs, which ships them.
 */
const WRITTEN: Readonly<Record<string, string>> = {
  'google/protobuf/any.proto': wkt('anypb', 'AnyProto', 'message Any {\n  string type_url = 1;\n  bytes value = 2;\n}\n'),
  'google/protobuf/duration.proto': wkt('durationpb', 'DurationProto', 'message Duration {\n  int64 seconds = 1;\n  int32 nanos = 2;\n}\n'),
  'google/protobuf/empty.proto': wkt('emptypb', 'EmptyProto', 'message Empty {}\n'),
  'google/protobuf/field_mask.proto': wkt('fieldmaskpb', 'FieldMaskProto', 'message FieldMask {\n  repeated string paths = 1;\n}\n'),
  'google/protobuf/struct.proto': wkt('structpb',
    'StructProto',
    [
      'message Struct {\n  map<string, Value> fields = 1;\n}\n',
      'message Value {\n  oneof kind {\n    NullValue null_value = 1;\n    double number_value = 2;\n    string string_value = 3;\n    bool bool_value = 4;\n    Struct struct_value = 5;\n    ListValue list_value = 6;\n  }\n}\n',
      'enum NullValue {\n  NULL_VALUE = 0;\n}\n',
      'message ListValue {\n  repeated Value values = 1;\n}\n',
    ].join('\n'),
  ),
  'google/protobuf/timestamp.proto': wkt('timestamppb', 'TimestampProto', 'message Timestamp {\n  int64 seconds = 1;\n  int32 nanos = 2;\n}\n'),
  'google/protobuf/wrappers.proto': wkt('wrapperspb',
    'WrappersProto',
    (
      [
        ['Double', 'double'],
        ['Float', 'float'],
        ['Int64', 'int64'],
        ['UInt64', 'uint64'],
        ['Int32', 'int32'],
        ['UInt32', 'uint32'],
        ['Bool', 'bool'],
        ['String', 'string'],
        ['Bytes', 'bytes'],
      ] as const
    )
      .map(([name, type]) => `message ${name}Value {\n  ${type} value = 1;\n}\n`)
      .join('\n'),
  ),
  'google/api/http.proto': [
    'syntax = "proto3";\n\npackage google.api;\n\n',
    'option cc_enable_arenas = true;\noption go_package = "google.golang.org/genproto/googleapis/api/annotations;annotations";\noption java_multiple_files = true;\noption java_outer_classname = "HttpProto";\noption java_package = "com.google.api";\noption objc_class_prefix = "GAPI";\n\n',
    'message Http {\n  repeated HttpRule rules = 1;\n  bool fully_decode_reserved_expansion = 2;\n}\n\n',
    'message HttpRule {\n  string selector = 1;\n  oneof pattern {\n    string get = 2;\n    string put = 3;\n    string post = 4;\n    string delete = 5;\n    string patch = 6;\n    CustomHttpPattern custom = 8;\n  }\n  string body = 7;\n  string response_body = 12;\n  repeated HttpRule additional_bindings = 11;\n}\n\n',
    'message CustomHttpPattern {\n  string kind = 1;\n  string path = 2;\n}\n',
  ].join(''),
  'google/api/annotations.proto': [
    'syntax = "proto3";\n\npackage google.api;\n\nimport "google/api/http.proto";\nimport "google/protobuf/descriptor.proto";\n\n',
    'option go_package = "google.golang.org/genproto/googleapis/api/annotations;annotations";\noption java_multiple_files = true;\noption java_outer_classname = "AnnotationsProto";\noption java_package = "com.google.api";\noption objc_class_prefix = "GAPI";\n\n',
    'extend google.protobuf.MethodOptions {\n  HttpRule http = 72295728;\n}\n',
  ].join(''),
  'google/rpc/status.proto': [
    'syntax = "proto3";\n\npackage google.rpc;\n\nimport "google/protobuf/any.proto";\n\n',
    'option cc_enable_arenas = true;\noption go_package = "google.golang.org/genproto/googleapis/rpc/status;status";\noption java_multiple_files = true;\noption java_outer_classname = "StatusProto";\noption java_package = "com.google.rpc";\noption objc_class_prefix = "RPC";\n\n',
    'message Status {\n  int32 code = 1;\n  string message = 2;\n  repeated google.protobuf.Any details = 3;\n}\n',
  ].join(''),
  'google/rpc/error_details.proto': [
    'syntax = "proto3";\n\npackage google.rpc;\n\nimport "google/protobuf/duration.proto";\n\n',
    'option go_package = "google.golang.org/genproto/googleapis/rpc/errdetails;errdetails";\noption java_multiple_files = true;\noption java_outer_classname = "ErrorDetailsProto";\noption java_package = "com.google.rpc";\noption objc_class_prefix = "RPC";\n\n',
    'message ErrorInfo {\n  string reason = 1;\n  string domain = 2;\n  map<string, string> metadata = 3;\n}\n\n',
    'message RetryInfo {\n  google.protobuf.Duration retry_delay = 1;\n}\n\n',
    'message DebugInfo {\n  repeated string stack_entries = 1;\n  string detail = 2;\n}\n\n',
    'message QuotaFailure {\n  message Violation {\n    string subject = 1;\n    string description = 2;\n    string api_service = 3;\n    string quota_metric = 4;\n    string quota_id = 5;\n    map<string, string> quota_dimensions = 6;\n    int64 quota_value = 7;\n    optional int64 future_quota_value = 8;\n  }\n  repeated Violation violations = 1;\n}\n\n',
    'message PreconditionFailure {\n  message Violation {\n    string type = 1;\n    string subject = 2;\n    string description = 3;\n  }\n  repeated Violation violations = 1;\n}\n\n',
    'message BadRequest {\n  message FieldViolation {\n    string field = 1;\n    string description = 2;\n    string reason = 3;\n    LocalizedMessage localized_message = 4;\n  }\n  repeated FieldViolation field_violations = 1;\n}\n\n',
    'message RequestInfo {\n  string request_id = 1;\n  string serving_data = 2;\n}\n\n',
    'message ResourceInfo {\n  string resource_type = 1;\n  string resource_name = 2;\n  string owner = 3;\n  string description = 4;\n}\n\n',
    'message Help {\n  message Link {\n    string description = 1;\n    string url = 2;\n  }\n  repeated Link links = 1;\n}\n\n',
    'message LocalizedMessage {\n  string locale = 1;\n  string message = 2;\n}\n',
  ].join(''),
};

/** Shipped by protobufjs (google/protobuf/*.proto of its package). */
const FROM_PROTOBUFJS: readonly string[] = ['google/protobuf/descriptor.proto', 'google/protobuf/api.proto', 'google/protobuf/type.proto', 'google/protobuf/source_context.proto'];

/** Files a build always holds (the engine answers rich errors with them), whether imported or not. */
export const ALWAYS_BUNDLED: readonly string[] = ['google/rpc/status.proto', 'google/rpc/error_details.proto'];

/** The text of a bundled file by its import path; undefined for any other path. */
export function bundledProto(importPath: string): string | undefined {
  const written = WRITTEN[importPath];
  if (written !== undefined) return written;
  if (!FROM_PROTOBUFJS.includes(importPath)) return undefined;
  const require = createRequire(import.meta.url);
  return readFileSync(path.join(path.dirname(require.resolve('protobufjs/package.json')), importPath), 'utf8');
}

function wkt(goPackage: string, outerClass: string, body: string): string {
  return [
    'syntax = "proto3";\n\npackage google.protobuf;\n\n',
    `option cc_enable_arenas = true;\noption csharp_namespace = "Google.Protobuf.WellKnownTypes";\noption go_package = "google.golang.org/protobuf/types/known/${goPackage}";\noption java_multiple_files = true;\noption java_outer_classname = "${outerClass}";\noption java_package = "com.google.protobuf";\noption objc_class_prefix = "GPB";\n\n`,
    body,
  ].join('');
}
