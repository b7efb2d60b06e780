import { escapeToken, isObject, type Json, type WorkingDocument } from './document.js';
import type { Dialect } from './infer.js';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Where things of one operation are in the description: pointers into the working document. */
export class DescriptionMap {
  constructor(
    private readonly doc: WorkingDocument,
    readonly dialect: Dialect,
    private readonly basePath: string,
  ) {}

  /** The path item of a path as the description writes it, found from a mounted template (`/v1/pets/{id}`) or a request path. */
  pathItem(path: string, literal: boolean): string | undefined {
    const paths = this.doc.at('/paths');
    if (!isObject(paths)) return undefined;
    const key = Object.keys(paths).find((written) => {
      const mounted = `${this.basePath}${written}`.replace(/\/{2,}/g, '/');
      return literal ? templateMatches(written, path) || templateMatches(mounted, path) : written === path || mounted === path;
    });
    return key === undefined ? undefined : this.doc.resolve(`/paths/${escapeToken(key)}`);
  }

  /** The path (as the description would write it) a request path has once its mount is taken off. */
  unmounted(path: string): string {
    return this.basePath !== '' && path.startsWith(`${this.basePath}/`) ? path.slice(this.basePath.length) : path;
  }

  operation(method: string, template: string): string | undefined {
    const item = this.pathItem(template, false);
    const key = method.toLowerCase();
    return item !== undefined && METHODS.has(key) && isObject(this.doc.at(`${item}/${key}`)) ? `${item}/${key}` : undefined;
  }

  /** The parameter of the operation (or of its path item) named so in that place, resolved. */
  parameter(operation: string, where: string, name: string): string | undefined {
    const item = operation.slice(0, operation.lastIndexOf('/'));
    for (const owner of [operation, item]) {
      const list = this.doc.at(`${owner}/parameters`);
      if (!Array.isArray(list)) continue;
      for (let i = 0; i < list.length; i++) {
        const at = this.doc.resolve(`${owner}/parameters/${i}`);
        const parameter = at === undefined ? undefined : this.doc.at(at);
        if (!isObject(parameter) || parameter.in !== where) continue;
        if (where === 'header' ? String(parameter.name).toLowerCase() === name.toLowerCase() : parameter.name === name) return at;
      }
    }
    return undefined;
  }

  /** Where a parameter's values are described: its schema (Swagger 2.0: the parameter itself). */
  parameterSchema(parameter: string): string {
    if (this.dialect === '2.0') return parameter;
    const node = this.doc.at(parameter) as Json;
    if (isObject(node.content)) {
      const [media] = Object.keys(node.content);
      return `${parameter}/content/${escapeToken(media)}/schema`;
    }
    return `${parameter}/schema`;
  }

  /** The request body's schema for a media type (the closest one it documents); Swagger 2.0: the body parameter's. */
  requestSchema(operation: string, mediaType: string | undefined): string | undefined {
    if (this.dialect === '2.0') {
      const list = this.doc.at(`${operation}/parameters`);
      const index = Array.isArray(list) ? list.findIndex((p) => isObject(p) && p.in === 'body') : -1;
      return index === -1 ? undefined : `${this.doc.resolve(`${operation}/parameters/${index}`)}/schema`;
    }
    const body = this.doc.resolve(`${operation}/requestBody`);
    return body === undefined ? undefined : this.mediaSchema(body, mediaType);
  }

  /** The response object that documents a status (exact, then `2XX`, then `default`), resolved. */
  response(operation: string, status: number): string | undefined {
    const responses = this.doc.at(`${operation}/responses`);
    if (!isObject(responses)) return undefined;
    const key = [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, 'default'].find((k) => Object.hasOwn(responses, k));
    return key === undefined ? undefined : this.doc.resolve(`${operation}/responses/${escapeToken(key)}`);
  }

  responseSchema(response: string, mediaType: string | undefined): string | undefined {
    if (this.dialect === '2.0') return isObject(this.doc.at(`${response}/schema`)) ? `${response}/schema` : undefined;
    return this.mediaSchema(response, mediaType);
  }

  private mediaSchema(owner: string, mediaType: string | undefined): string | undefined {
    const content = this.doc.at(`${owner}/content`);
    if (!isObject(content)) return undefined;
    const types = Object.keys(content);
    const essence = mediaType?.split(';')[0].trim().toLowerCase();
    const chosen =
      types.find((t) => t.toLowerCase() === essence) ??
      types.find((t) => essence !== undefined && t.endsWith('/*') && essence.startsWith(t.slice(0, -1))) ??
      types.find((t) => /json/i.test(t)) ??
      types[0];
    return chosen === undefined || !isObject(content[chosen]) || !isObject((content[chosen] as Json).schema) ? undefined : `${owner}/content/${escapeToken(chosen)}/schema`;
  }
}

/** Whether a request path fits a path template segment by segment (`{id}` takes any one segment). */
export function templateMatches(template: string, path: string): boolean {
  const a = template.split('/');
  const b = path.split('/');
  return a.length === b.length && a.every((segment, i) => (/\{[^}]+\}/.test(segment) ? b[i] !== '' : segment === b[i]));
}

/** The values of a template's path parameters in a request path. */
export function pathValues(template: string, path: string): Record<string, string> {
  const values: Record<string, string> = {};
  const segments = path.split('/');
  template.split('/').forEach((segment, i) => {
    const whole = /^\{([^}]+)\}$/.exec(segment);
    if (whole !== null && segments[i] !== undefined) values[whole[1]] = decodeURIComponent(segments[i]);
  });
  return values;
}
