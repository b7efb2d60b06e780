/** The shape of a generated build's index.js, as emitted by compiler/emit. */
export type ValueKind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'any';

export interface ParamMeta {
  /** Lower-case for headers. */
  name: string;
  /** As the description writes it. */
  declaredName: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  kind: ValueKind;
  items: ValueKind;
  style: string;
  explode: boolean;
}

export interface BodyMeta {
  type: string;
  format: string;
  validator: string | null;
  fields: Record<string, string> | null;
}

export interface OperationMeta {
  key: string;
  method: string;
  path: string;
  operationId: string | null;
  summary: string | null;
  description: string | null;
  tags: string[];
  params: ParamMeta[];
  paramsValidator: string | null;
  body: { required: boolean; contents: BodyMeta[] } | null;
  security: Array<{ scheme: string; type: string; detail: string | null; name: string | null }>;
}

/** An apiKey security scheme of a description: where its key travels. */
export interface ApiKeyMeta {
  scheme: string;
  in: 'header' | 'query' | 'cookie';
  name: string;
}

export interface CustomRouteMeta {
  method: string;
  path: string;
  match: { query?: Record<string, string>; headers?: Record<string, string>; body?: unknown };
}

export interface Candidate {
  kind: 'op' | 'route';
  index: number;
  names: string[];
}

export interface Terminal {
  methods: Record<string, Candidate[]>;
  any: Candidate[] | null;
  allow: string;
}

export interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

export type Validate = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

export type Render = (t: unknown, c: unknown) => string;

export interface ExampleEntry {
  name: string;
  valid: boolean;
  body: string;
  template: Render | null;
}

export interface ContentEntry {
  type: string;
  format: string;
  xmlRoot: string;
  validator: string | null;
  /** Index of the example served by default; -1 generates. */
  preferred: number;
  examples: ExampleEntry[];
  generate: ((depth: number) => unknown) | null;
}

export interface ResponseEntry {
  code: string;
  status: number;
  headers: Array<[string, () => string]>;
  contents: ContentEntry[];
}

export interface OperationResponders {
  defaultResponse: number;
  responses: ResponseEntry[];
}

export interface RouteResponder {
  status: number;
  type: string | null;
  headers: Array<[string, string, Render | null]>;
  body: string;
  template: Render | null;
}

export interface BuildModule {
  name: string;
  /** `apiKeys` is missing in builds made before it was emitted. */
  specs: Array<{ source: string; title: string; version: string; dialect: string; basePath: string; apiKeys?: ApiKeyMeta[] }>;
  operations: OperationMeta[];
  customRoutes: CustomRouteMeta[];
  match(segments: string[], params: string[]): Terminal | undefined;
  createValidators(require: (id: string) => unknown): Record<string, Validate>;
  createResponders(g: unknown): { operations: OperationResponders[]; routes: RouteResponder[] };
}
