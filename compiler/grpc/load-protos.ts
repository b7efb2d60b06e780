import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { MockError } from '../../common/errors.js';
import type { GrpcBuildOutput, GrpcMethodInfo, GrpcServiceInfo } from '../../common/grpc/build-output.js';
import { ALWAYS_BUNDLED, bundledProto } from '../../common/grpc/bundled-protos.js';
import { encodeFileDescriptor, fileDescriptor } from './descriptors.js';
import { httpRule } from './http-rule.js';
import type { ProtoSource as Source } from './proto-source.js';
import { protoFiles, shownPath, type ProtoFileOptions } from './proto-files.js';

export interface ProtoLoadOptions extends ProtoFileOptions {
  /** grpc.excluded_services: full names of services left out. */
  excludedServices?: readonly string[];
  /** Import paths of the only files to load, with what they import (contract-diff compare of named files); absent: every file. */
  only?: readonly string[];
}

export interface LoadedProtos {
  output: GrpcBuildOutput;
  /** The resolved root the output was made from (contract-diff compare reads its definitions). */
  root: protobuf.Root;
  /** The user's files read (hashed into manifest.json), by absolute path. */
  files: string[];
  /** Import paths of the user's files that built (keys of output.files), sorted. */
  built: string[];
  /** One line per problem: `proto/x.proto:3:5: message (fix the file; the other files still serve)`. */
  warnings: string[];
  /** One line per file left out: `proto/x.proto:3:5: message`. */
  failures: string[];
}

interface Problem {
  source: { importPath: string; shown: string };
  line?: number;
  column?: number;
  message: string;
}

/** protobufjs names the file being parsed in its errors through this static property (untyped). */
const setParsedFile = (name: string): void => {
  (protobuf.parse as unknown as { filename: string | null }).filename = name;
};

const PARSE_OPTIONS = { keepCase: true, alternateCommentMode: true } as const;

/**
 * Reads every .proto of the proto folder (proto-files.ts), parses and resolves them with
 * protobufjs, and makes what the gRPC server serves: the root, a FileDescriptorProto per file
 * (dependencies complete, bundled files included) and the services. A file that does not parse or
 * resolve (or imports one that does not) is reported and left out; the others still build.
 */
export function loadProtos(options: ProtoLoadOptions): LoadedProtos {
  const listed = protoFiles(options);
  const problems: Problem[] = [];
  const user = new Map<string, Source>();
  for (const { importPath, file } of listed) {
    const text = readFileSync(file, 'utf8');
    const shown = shownPath(file, options.cwd);
    try {
      user.set(importPath, { importPath, file, text, shown, ...scan(importPath, text) });
    } catch (e) {
      problems.push({ source: { importPath, shown }, ...located(e as Error, text) });
    }
  }
  if (options.only !== undefined) keepImported(user, problems, options.only);
  const bundled = new Map<string, Source>();
  const sourceOf = (importPath: string): Source | undefined => {
    const own = user.get(importPath);
    if (own !== undefined) return own;
    if (bundled.has(importPath)) return bundled.get(importPath);
    const text = bundledProto(importPath);
    if (text === undefined) return undefined;
    const source = { importPath, text, shown: importPath, ...scan(importPath, text) };
    bundled.set(importPath, source);
    return source;
  };

  // a file builds when its imports (transitively) exist and build
  const rejected = new Set<string>([...problems.map((p) => p.source.importPath)]);
  const checkImports = (): void => {
    let changed = true;
    while (changed) {
      changed = false;
      for (const source of user.values()) {
        if (rejected.has(source.importPath)) continue;
        for (const name of source.imports) {
          const imported = rejected.has(name) ? undefined : sourceOf(name);
          if (imported !== undefined) continue;
          const at = importLocation(source.text, name);
          const message = !rejected.has(name) ? `import "${name}" not found in the proto folder (nor built in)` : `imports "${name}", which does not build`;
          problems.push({ source, ...at, message });
          rejected.add(source.importPath);
          changed = true;
          break;
        }
      }
    }
  };
  checkImports();

  // one root of every file that builds; a file whose parse or resolution fails (a duplicate name,
  // an unknown type) is reported and left out, then the root is made again without it
  let root: protobuf.Root;
  let order: Source[];
  for (;;) {
    order = buildOrder(
      [...user.values()].filter((s) => !rejected.has(s.importPath)).map((s) => s.importPath),
      ALWAYS_BUNDLED,
      sourceOf,
    );
    root = new protobuf.Root();
    let failed: Source | undefined;
    for (const source of order) {
      try {
        parseInto(root, source);
      } catch (e) {
        if (source.file === undefined) throw e;
        failed = source;
        problems.push({ source, ...located(e as Error, source.text) });
        break;
      }
    }
    if (failed === undefined) failed = unresolved(root, order, problems);
    if (failed === undefined) break;
    rejected.add(failed.importPath);
    checkImports();
  }

  const excluded = new Set(options.excludedServices ?? []);
  const services: GrpcServiceInfo[] = [];
  const files: Record<string, string> = {};
  for (const source of order) {
    files[source.importPath] = encodeFileDescriptor(fileDescriptor(root, source));
  }
  for (const service of allServices(root)) {
    const file = service.filename ?? '';
    if (!user.has(file) || rejected.has(file)) continue;
    const name = service.fullName.slice(1);
    if (excluded.has(name)) continue;
    services.push({ name, file, methods: service.methodsArray.map(methodInfo) });
  }
  services.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const failures = problems.map(({ source, line, column, message }) => `${source.shown}${line === undefined ? '' : `:${line}${column === undefined ? '' : `:${column}`}`}: ${message}`);
  const warnings = failures.map((failure) => `${failure} (fix the file; the other files still serve)`);
  const known = new Set(allServices(root).map((service) => service.fullName.slice(1)));
  for (const name of excluded) if (!known.has(name)) warnings.push(`grpc.excluded_services: no service ${name} in the .proto files (services are named package.Service)`);
  const output: GrpcBuildOutput = {
    root: root.toJSON() as Record<string, unknown>,
    files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    services,
    problems: problems
      .map(({ source, line, column, message }) => ({ file: source.importPath, ...(line === undefined ? {} : { line }), ...(column === undefined ? {} : { column }), message }))
      .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0))),
  };
  const built = order
    .filter((source) => source.file !== undefined)
    .map((source) => source.importPath)
    .sort();
  return { output, root, files: listed.map(({ file }) => file), built, warnings, failures };
}

/**
 * A build whose .proto files failed so that no service is left stops with the first failure: a
 * gRPC server with nothing in it is not what was asked for. With some service left, the failures
 * stay warnings and the rest serves.
 */
export function refuseWhenNothingServes({ output, failures }: LoadedProtos): void {
  if (output.services.length > 0 || failures.length === 0) return;
  const more = failures.length > 1 ? ` (and ${failures.length - 1} more problem(s): mock config validate lists them)` : '';
  throw new MockError('MOCK_ERR_GRPC_PROTO_INVALID', `${failures[0]}${more}; no gRPC service is left to serve: fix the file`);
}

/** Imports, package and syntax of a file, by parsing it alone (syntax errors show here). */
function scan(importPath: string, text: string): { imports: string[]; pkg: string; syntax: string } {
  setParsedFile(importPath);
  const parsed = protobuf.parse(text, new protobuf.Root(), PARSE_OPTIONS);
  const syntax = /^\s*syntax\s*=\s*["']proto3["']/m.test(stripComments(text)) ? 'proto3' : /^\s*edition\s*=/m.test(stripComments(text)) ? 'editions' : 'proto2';
  return { imports: [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])], pkg: parsed.package ?? '', syntax };
}

function parseInto(root: protobuf.Root, source: Source): void {
  setParsedFile(source.importPath);
  protobuf.parse(source.text, root, PARSE_OPTIONS);
  root.files.push(source.importPath);
}

/** Leaves in `user` (and `problems`) only the files named and those they import, transitively. */
function keepImported(user: Map<string, Source>, problems: Problem[], names: readonly string[]): void {
  const kept = new Set<string>();
  const visit = (name: string): void => {
    if (kept.has(name)) return;
    kept.add(name);
    for (const imported of user.get(name)?.imports ?? []) visit(imported);
  };
  names.forEach(visit);
  for (const name of [...user.keys()]) if (!kept.has(name)) user.delete(name);
  problems.splice(0, problems.length, ...problems.filter((problem) => kept.has(problem.source.importPath)));
}

/** The files to load, imports before importers (depth first, in sorted order), the always-bundled ones too. */
function buildOrder(names: readonly string[], always: readonly string[], sourceOf: (name: string) => Source | undefined): Source[] {
  const order: Source[] = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const source = sourceOf(name);
    if (source === undefined) return;
    for (const imported of source.imports) visit(imported);
    order.push(source);
  };
  for (const name of [...names, ...always]) visit(name);
  return order;
}

/** Resolves every object of each file in turn; the first file that fails is reported and returned. */
function unresolved(root: protobuf.Root, order: readonly Source[], problems: Problem[]): Source | undefined {
  const byFile = new Map<string, protobuf.ReflectionObject[]>();
  const walk = (ns: protobuf.NamespaceBase): void => {
    for (const nested of ns.nestedArray) {
      const file = nested.filename ?? '';
      if (nested instanceof protobuf.Type || nested instanceof protobuf.Service || nested instanceof protobuf.Enum || nested instanceof protobuf.Field) {
        const list = byFile.get(file) ?? [];
        list.push(nested);
        byFile.set(file, list);
      }
      if (nested instanceof protobuf.Namespace && !(nested instanceof protobuf.Service)) walk(nested);
    }
  };
  walk(root);
  for (const source of order) {
    for (const object of byFile.get(source.importPath) ?? []) {
      try {
        if (object instanceof protobuf.Namespace) object.resolveAll();
        else object.resolve();
      } catch (e) {
        if (source.file === undefined) throw e;
        const message = (e as Error).message;
        const name = /^no such (?:type|Type or Enum)[: ]+'?([\w.]+)'?/.exec(message)?.[1];
        const what = object instanceof protobuf.Service ? 'service' : object instanceof protobuf.Enum ? 'enum' : object instanceof protobuf.Field ? 'extension' : 'message';
        const said = name === undefined ? message : `unknown type ${name} (in ${what} ${object.fullName.slice(1)}); define or import it`;
        problems.push({ source, ...(name === undefined ? {} : tokenLocation(source.text, name.replace(/^\./, ''))), message: said });
        return source;
      }
    }
  }
  root.resolveAll();
  return undefined;
}

function allServices(root: protobuf.Root): protobuf.Service[] {
  const found: protobuf.Service[] = [];
  const walk = (ns: protobuf.NamespaceBase): void => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Service) found.push(nested);
      else if (nested instanceof protobuf.Namespace) walk(nested);
    }
  };
  walk(root);
  return found;
}

function methodInfo(method: protobuf.Method): GrpcMethodInfo {
  const http = httpRule(method);
  return {
    name: method.name,
    requestType: (method.resolvedRequestType as protobuf.Type).fullName.slice(1),
    responseType: (method.resolvedResponseType as protobuf.Type).fullName.slice(1),
    clientStreaming: method.requestStream === true,
    serverStreaming: method.responseStream === true,
    ...(http === undefined ? {} : { http }),
  };
}

/** Line and column of a protobufjs error (`illegal token 'x' (a.proto, line 3)`), the column where the token first shows on that line. */
function located(error: Error, text: string): { line?: number; column?: number; message: string } {
  const match = /^(.*?)\s*\((?:[^,()]+, )?line (\d+)\)$/s.exec(error.message);
  if (match === null) {
    const duplicate = /^duplicate name '([^']+)'/.exec(error.message);
    return { ...(duplicate === null ? {} : tokenLocation(text, duplicate[1])), message: error.message };
  }
  const line = Number(match[2]);
  const token = /'([^']*)'/.exec(match[1])?.[1];
  const lineText = text.split('\n')[line - 1] ?? '';
  const index = token === undefined || token === '' ? -1 : lineText.indexOf(token);
  return { line, ...(index < 0 ? {} : { column: index + 1 }), message: match[1] };
}

/** Where a name first appears as a word, outside comments. */
function tokenLocation(text: string, name: string): { line?: number; column?: number } {
  const lines = stripComments(text).split('\n');
  const last = name.split('.').pop() as string;
  const pattern = new RegExp(`(^|[^\\w.])(${escape(name)}|${escape(last)})(?![\\w])`);
  for (const [i, line] of lines.entries()) {
    const match = pattern.exec(line);
    if (match !== null) return { line: i + 1, column: match.index + match[1].length + 1 };
  }
  return {};
}

function importLocation(text: string, name: string): { line?: number; column?: number } {
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    const index = line.indexOf(`"${name}"`) >= 0 ? line.indexOf(`"${name}"`) : line.indexOf(`'${name}'`);
    if (index >= 0 && /^\s*import\b/.test(line)) return { line: i + 1, column: index + 1 };
  }
  return {};
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Comments blanked out, lines and columns kept. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (m) => (m.startsWith('/') ? m.replace(/[^\n]/g, ' ') : m));
}
