/** What `mock build` needs to know: the inputs (hashed into manifest.json) and where to write. */
export interface SpecInput {
  /** A file path (relative to cwd) or an http(s) URL. */
  source: string;
  /** Mount prefix; when absent the path of the description's first `servers` URL (or Swagger basePath). */
  basePath?: string;
}

export interface BuildOptions {
  specs: SpecInput[];
  /**
   * --graphql-schema, graphql.schema: SDL files, globs of them or introspection results (.json),
   * relative to cwd or absolute, in order; the build checks them and writes them as schema.graphql.
   */
  graphqlSchemas?: string[];
  /**
   * grpc.proto_dir when the gRPC server runs (--proto-dir), relative to cwd or absolute: every
   * .proto beneath it is compiled into grpc.json. Absent: no gRPC in this build.
   */
  protoDir?: string;
  /** grpc.excluded_services: full names of services grpc.json leaves out. */
  excludedServices?: string[];
  /** Raw `http.routes` entries from mock.yaml (validated by the compiler). */
  routes: unknown[];
  /** `core.routes` entries of mock.yaml (checked by the configuration schema): per-route behaviour. */
  routeRules?: unknown[];
  /** Folder holding the builds, e.g. <project>/generated. */
  outDir: string;
  /** Build name (folder under outDir); default: the first spec's file name without extension, else the first GraphQL schema file's, else the proto folder's. */
  name?: string;
  /** Directory relative spec paths are resolved against: the project folder, where external $refs may lead. */
  cwd: string;
  /** --allow-ref: absolute folders and http(s) URL prefixes outside the project that external $refs may read too. */
  allowRefs?: string[];
  /** Told each stage of the build as it starts, with counts where a stage has them. */
  progress?: BuildProgress;
}

/** A build stage starting (`done` of `total` operations, when counted). */
export type BuildProgress = (stage: string, done?: number, total?: number) => void;

export interface BuildResult {
  name: string;
  /** Absolute directory of this build. */
  dir: string;
  /** Files written because they changed (relative to dir). */
  written: string[];
  /** Files left untouched because their content was already identical. */
  unchanged: string[];
}

export interface CheckResult {
  name: string;
  dir: string;
  /** Relative paths that are missing or differ from a fresh build; empty when fresh. */
  stale: string[];
}
