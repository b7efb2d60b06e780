import type { GrpcMethodInfo } from '../../../../common/grpc/build-output.js';

/** One HTTP binding of a method: its verb, its path template compiled, where the body goes and what the answer is. */
export interface HttpBinding {
  /** The HTTP method. */
  method: string;
  /** `/pkg.Service/Method`. */
  grpcPath: string;
  template: string;
  /** The path's segments, each percent-decoded once (bridge-server.ts), against the template: the bound fields, or undefined. */
  match(segments: readonly string[]): Record<string, string> | undefined;
  /** `*`: the whole body is the request; a field name: the body is that field; undefined: no body. */
  body?: string;
  /** A field of the response to answer with instead of the whole message. */
  responseBody?: string;
}

type Part = { literal: string } | { variable: string; pattern: string[] };

const VERBS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** google.api.http path templates (`/v1/{name=shelves/*}/books/{book}`, `**`, a `:verb` suffix), matched segment by segment. */
function compile(template: string): (segments: readonly string[]) => Record<string, string> | undefined {
  const colon = template.lastIndexOf(':');
  const verb = colon > template.lastIndexOf('}') && colon > template.lastIndexOf('/') ? template.slice(colon) : '';
  const body = verb === '' ? template : template.slice(0, -verb.length);
  const parts: Part[] = [];
  for (const segment of splitTemplate(body)) {
    const variable = /^\{([\w.]+)(?:=(.+))?\}$/.exec(segment);
    if (variable === null) {
      parts.push({ literal: segment });
      continue;
    }
    parts.push({ variable: variable[1], pattern: (variable[2] ?? '*').split('/') });
  }
  return (given) => {
    let segments = given;
    if (verb !== '') {
      const last = segments.at(-1);
      if (last === undefined || !last.endsWith(verb)) return undefined;
      segments = [...segments.slice(0, -1), last.slice(0, -verb.length)];
    }
    const bound: Record<string, string> = {};
    let at = 0;
    for (const [i, part] of parts.entries()) {
      if ('literal' in part) {
        if (part.literal === '*') {
          if (segments[at] === undefined) return undefined;
          at++;
        } else if (part.literal === '**') {
          at = segments.length;
        } else if (segments[at++] !== part.literal) return undefined;
        continue;
      }
      const taken: string[] = [];
      for (const piece of part.pattern) {
        if (piece === '**') {
          // what the parts after this one need stays for them
          const rest = parts.slice(i + 1).length;
          while (at < segments.length - rest) taken.push(segments[at++]);
        } else if (piece === '*') {
          if (segments[at] === undefined || segments[at] === '') return undefined;
          taken.push(segments[at++]);
        } else {
          if (segments[at] !== piece) return undefined;
          taken.push(segments[at++]);
        }
      }
      bound[part.variable] = taken.join('/');
    }
    return at === segments.length ? bound : undefined;
  };
}

/** Splits on `/` outside braces: `/v1/{name=shelves/*}/books` → v1, {name=shelves/*}, books. */
function splitTemplate(template: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of template.replace(/^\//, '')) {
    if (char === '{') depth++;
    if (char === '}') depth--;
    if (char === '/' && depth === 0) {
      out.push(current);
      current = '';
    } else current += char;
  }
  out.push(current);
  return out;
}

function bindingsOf(rule: Record<string, unknown>, grpcPath: string): HttpBinding[] {
  const out: HttpBinding[] = [];
  const custom = rule.custom as { kind?: string; path?: string } | undefined;
  const chosen = VERBS.find((verb) => typeof rule[verb] === 'string');
  const verb = chosen?.toUpperCase() ?? custom?.kind?.toUpperCase();
  const template = chosen === undefined ? custom?.path : (rule[chosen] as string);
  if (verb !== undefined && template !== undefined) {
    out.push({ method: verb, grpcPath, template, match: compile(template), body: typeof rule.body === 'string' && rule.body !== '' ? rule.body : undefined, responseBody: typeof rule.response_body === 'string' && rule.response_body !== '' ? rule.response_body : undefined });
  }
  const additional = rule.additional_bindings;
  for (const more of Array.isArray(additional) ? additional : additional === undefined ? [] : [additional]) out.push(...bindingsOf(more as Record<string, unknown>, grpcPath));
  return out;
}

const hasVerb = (template: string): boolean => /:[\w-]+$/.test(template.slice(template.lastIndexOf('}') + 1));

/**
 * Every google.api.http binding of the services' methods, in declaration order, except that those
 * ending in a custom verb (`…/books/*:title`) come first: a `*` elsewhere would take `2:title` as
 * a segment.
 */
export function httpBindings(services: ReadonlyArray<{ name: string; methods: readonly GrpcMethodInfo[] }>): HttpBinding[] {
  const all = services.flatMap((service) => service.methods.flatMap((method) => (method.http === undefined ? [] : bindingsOf(method.http, `/${service.name}/${method.name}`))));
  return [...all.filter((b) => hasVerb(b.template)), ...all.filter((b) => !hasVerb(b.template))];
}
