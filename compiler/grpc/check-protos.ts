import type { ProtoLoadOptions } from './load-protos.js';

/** What `mock config validate` says of the .proto files. */
export interface GrpcSummary {
  /** The proto folder, as given. */
  dir: string;
  files: number;
  services: number;
  methods: number;
  /** Files that do not build (left out). */
  leftOut: number;
  /** One line per file left out (file:line:column: message) and per excluded service that names none. */
  problems: string[];
}

/** Reads and compiles the .proto files as `mock build` would. protobufjs loads only when called. */
export async function checkProtos(options: ProtoLoadOptions & { protoDir: string }): Promise<GrpcSummary> {
  const { loadProtos } = await import('./load-protos.js');
  const { output, files, warnings } = loadProtos(options);
  return {
    dir: options.protoDir,
    files: files.length,
    services: output.services.length,
    methods: output.services.reduce((sum, service) => sum + service.methods.length, 0),
    leftOut: output.problems.length,
    problems: warnings,
  };
}
