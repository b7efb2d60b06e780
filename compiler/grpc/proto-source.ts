/** One file to build: a user's (from the proto folder) or a bundled one. */
export interface ProtoSource {
  importPath: string;
  text: string;
  /** Absolute path of a user's file; undefined for a bundled one. */
  file?: string;
  /** How messages name it: project-relative for a user's file, the import path for a bundled one. */
  shown: string;
  /** What it imports, as written (public and weak imports included). */
  imports: string[];
  pkg: string;
  syntax: string;
}
