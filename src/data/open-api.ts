import { MockError } from '../../common/errors.js';
import { bodyFormat, buildIr, type GenMode, type Ir, type IrContent, type IrOperation, type IrResponse, type JsonSchema, readDescription, toOpenApi3 } from '../../compiler/index.js';
import { compileGenerators, type GeneratorOptions, type GeneratorRequest } from './generators.js';
import { closest } from './similar.js';
import type { ValueSource } from './values.js';

export interface OpenApiDataRequest {
  /** --spec as given (file or URL). */
  spec: string;
  /** Path as written in the description (`/pets/{petId}`), as mounted (`/v1/pets/{petId}`), or a concrete path (`/v1/pets/7`). */
  endpoint: string;
  /** Any case; optional when the path has one operation or a GET. */
  method?: string;
  /** `200`, `2XX`, `default`; default: the one the server answers with. */
  status?: string;
  mediaType?: string;
  mode: GenMode;
  /** --allow-ref: absolute folders and URL prefixes outside the project that external $refs may read. */
  allowRefs?: string[];
}

/** What was picked, for messages and tests. */
export interface OpenApiTarget {
  operation: IrOperation;
  /** Response status as written (response mode only). */
  status?: string;
  mediaType: string;
}

/**
 * Values for one operation's default response (or its request body) made with the server's own
 * generators: each value is one whole body, as one request to `mock serve` would get it with
 * `Prefer: dynamic=true`. In response mode the documented response headers are generated too
 * (and dropped) after each body, as the server does, so a seeded run yields the same bodies, in
 * the same order, as a server started with that seed answering that operation.
 */
export async function openApiSource(request: OpenApiDataRequest, cwd: string): Promise<ValueSource & { target: OpenApiTarget }> {
  const ir = await loadIr(request.spec, cwd, request.allowRefs);
  const operation = findOperation(ir, request);
  const where = `${operation.method} ${operation.specPath}`;
  let status: string | undefined;
  let contents: IrContent[];
  if (request.mode === 'request') {
    if (request.status !== undefined) throw new MockError('MOCK_ERR_FLAG_INVALID', '--status: only applies to responses (leave it out with --mode request)');
    contents = operation.requestBody?.contents ?? [];
    if (contents.length === 0) {
      throw new MockError('MOCK_ERR_FLAG_INVALID', `--mode request: ${where} in ${request.spec} has no request body (use --mode response, or pick an operation that takes a body)`);
    }
  } else {
    const response = pickResponse(operation, request.status, request.spec);
    status = response.status;
    contents = response.contents;
    if (contents.length === 0) {
      throw new MockError(
        'MOCK_ERR_FLAG_INVALID',
        `${where} in ${request.spec}: response ${response.status} has no body to generate (pick another --status: ${statusList(operation)})`,
      );
    }
  }
  const content = pickContent(contents, request.mediaType, `${where}${status ? ` response ${status}` : ' request body'}`);
  const target: OpenApiTarget = { operation, status, mediaType: content.mediaType };

  if (!content.schema) {
    if (content.examples.length === 0) {
      throw new MockError('MOCK_ERR_SPEC_INVALID', `${where} in ${request.spec}: ${content.mediaType} has neither a schema nor an example (document a schema to generate from)`);
    }
    // nothing to generate from: the server answers the first documented example, so do we
    const example = content.examples[0].value;
    return { target, create: () => () => structuredClone(example) };
  }

  const schema = content.schema;
  const headers = request.mode === 'response' ? headerSchemas(operation.responses.find((r) => r.status === status)) : [];
  const requests: GeneratorRequest[] = [{ schema, mode: request.mode }, ...headers.map((h) => ({ schema: h, mode: 'response' as const }))];
  return {
    target,
    create: (options: GeneratorOptions) => {
      const [body, ...headerGenerators] = compileGenerators(ir.definitions, requests, options);
      return () => {
        const value = body();
        for (const header of headerGenerators) header();
        return value;
      };
    },
  };
}

async function loadIr(spec: string, cwd: string, allowRefs: string[] | undefined): Promise<Ir> {
  const raw = await readDescription(spec, cwd, allowRefs);
  return buildIr('data', [{ source: spec, description: await toOpenApi3(spec, raw.document) }], []);
}

/** Header schemas the server generates per response, in its order (headers with an example are constants). */
function headerSchemas(response: IrResponse | undefined): JsonSchema[] {
  return (response?.headers ?? []).filter((h) => h.example === undefined && h.schema).map((h) => h.schema as JsonSchema);
}

const trimPath = (p: string): string => {
  const path = p.trim().replace(/[?#].*$/, '');
  const slashed = path.startsWith('/') ? path : `/${path}`;
  return slashed.length > 1 ? slashed.replace(/\/+$/, '') : slashed;
};

/** `/pets/{petId}` matches `/pets/7` (and `/pets/{id}`): a parameter segment takes any one segment. */
function templateMatches(template: string, path: string): boolean {
  const a = template.split('/');
  const b = path.split('/');
  return a.length === b.length && a.every((segment, i) => segment === b[i] || (/^\{[^}]+\}$/.test(segment) && b[i] !== ''));
}

export function findOperation(ir: Ir, request: Pick<OpenApiDataRequest, 'endpoint' | 'method' | 'spec'>): IrOperation {
  const endpoint = trimPath(request.endpoint);
  const exact = ir.operations.filter((op) => trimPath(op.specPath) === endpoint || trimPath(op.path) === endpoint);
  const candidates = exact.length > 0 ? exact : ir.operations.filter((op) => templateMatches(trimPath(op.specPath), endpoint) || templateMatches(trimPath(op.path), endpoint));
  if (candidates.length === 0) {
    const paths = [...new Set(ir.operations.map((op) => op.specPath))];
    const near = closest(endpoint, paths, 3).map((p) => `${p} (${ir.operations.filter((op) => op.specPath === p).map((op) => op.method).join(', ')})`);
    const mount = ir.specs[0]?.basePath ? `; mounted under ${ir.specs[0].basePath}` : '';
    const hint = near.length > 0 ? `closest: ${near.join(', ')}${mount}` : 'it documents no operations';
    throw new MockError('MOCK_ERR_FLAG_INVALID', `--endpoint ${request.endpoint}: no such path in ${request.spec} (${hint})`);
  }
  // several paths can match a concrete one (/pets/mine and /pets/{id}); keep the first path's operations
  const path = candidates[0].specPath;
  const onPath = candidates.filter((op) => op.specPath === path);
  const methods = onPath.map((op) => op.method).join(', ');
  if (request.method !== undefined) {
    const method = request.method.trim().toUpperCase();
    const found = onPath.find((op) => op.method === method);
    if (!found) throw new MockError('MOCK_ERR_FLAG_INVALID', `--method ${request.method}: ${path} in ${request.spec} has no ${method} operation (documented: ${methods})`);
    return found;
  }
  if (onPath.length === 1) return onPath[0];
  const get = onPath.find((op) => op.method === 'GET');
  if (get) return get;
  throw new MockError('MOCK_ERR_FLAG_INVALID', `--method: ${path} in ${request.spec} has several operations (${methods}); pass --method`);
}

const statusList = (op: IrOperation): string => op.responses.map((r) => r.status).join(', ') || 'none';

/** The response the server answers by default: first 2xx in document order, else first 3xx, else `default`. */
export function pickResponse(op: IrOperation, status: string | undefined, spec: string): IrResponse {
  const where = `${op.method} ${op.specPath} in ${spec}`;
  if (status === undefined) {
    for (const prefix of ['2', '3']) {
      const found = op.responses.find((r) => r.status.startsWith(prefix));
      if (found) return found;
    }
    const fallback = op.responses.find((r) => r.status === 'default');
    if (fallback) return fallback;
    throw new MockError('MOCK_ERR_FLAG_INVALID', `${where} documents no 2xx, 3xx or default response (pass --status: ${statusList(op)})`);
  }
  const wanted = status.trim().toUpperCase();
  const found =
    op.responses.find((r) => r.status.toUpperCase() === wanted) ??
    (/^\d{3}$/.test(wanted) ? op.responses.find((r) => r.status.toUpperCase() === `${wanted[0]}XX`) : undefined);
  if (!found) throw new MockError('MOCK_ERR_FLAG_INVALID', `--status ${status}: ${where} documents ${statusList(op)} (pick one of them)`);
  return found;
}

/** The requested media type, else application/json, else the first JSON one, else the first. */
function pickContent(contents: IrContent[], mediaType: string | undefined, where: string): IrContent {
  if (mediaType !== undefined) {
    const wanted = mediaType.trim().toLowerCase();
    const found = contents.find((c) => c.mediaType.toLowerCase() === wanted);
    if (!found) throw new MockError('MOCK_ERR_FLAG_INVALID', `--media-type ${mediaType}: ${where} documents ${contents.map((c) => c.mediaType).join(', ')} (pick one of them)`);
    return found;
  }
  return (
    contents.find((c) => c.mediaType.toLowerCase() === 'application/json') ??
    contents.find((c) => bodyFormat(c.mediaType) === 'json') ??
    contents[0]
  );
}
