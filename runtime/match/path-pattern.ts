import { PatternError } from '../../common/patterns/index.js';
import { show } from './show.js';

/**
 * Path patterns of whole segments: static text and `{param}` segments (runtime mocks, the admin
 * API's endpoint table). Compiled once: one entry per segment, the decoded text or null for a parameter.
 */
export interface PathPattern {
  segments: ReadonlyArray<string | null>;
  /** Parameter names in segment order. */
  names: readonly string[];
  /** One bit per segment, set for static ones, first segment most significant: larger is more specific. */
  specificity: number;
}

const PARAM = /^\{([^{}/]+)\}$/;

/** Throws PatternError naming `path` when the text is not `/`-rooted static segments and whole-segment `{param}`s. */
export function parsePathPattern(path: string): PathPattern {
  if (!path.startsWith('/')) throw new PatternError(`path must start with / (got ${show(path)})`);
  if (/[?#]/.test(path)) throw new PatternError(`path must not hold a query string or fragment (got ${show(path)}); use match_query for query conditions`);
  const segments: Array<string | null> = [];
  const names: string[] = [];
  let specificity = 0;
  for (const segment of trimSlashes(path)) {
    const param = PARAM.exec(segment);
    if (param !== null) {
      if (names.includes(param[1])) throw new PatternError(`path names the parameter {${param[1]}} twice (got ${show(path)})`);
      names.push(param[1]);
      segments.push(null);
      specificity *= 2;
    } else if (segment.includes('{') || segment.includes('}')) {
      throw new PatternError(`path segment ${show(segment)} must be plain text or one whole {param} (got ${show(path)})`);
    } else {
      segments.push(decodeSegment(segment));
      specificity = specificity * 2 + 1;
    }
  }
  return { segments, names, specificity };
}

/** Hot path: the request path as decoded segments, one trailing slash ignored (`/` is no segment). */
export function splitRequestPath(url: string): string[] {
  const segments = trimSlashes(url);
  return url.includes('%') ? segments.map(decodeSegment) : segments;
}

/** Hot path. */
export function matchesPath(pattern: PathPattern, segments: readonly string[]): boolean {
  const expected = pattern.segments;
  if (expected.length !== segments.length) return false;
  for (let i = 0; i < expected.length; i++) {
    const text = expected[i];
    if (text === null ? segments[i] === '' : text !== segments[i]) return false;
  }
  return true;
}

/** The `{param}` values of a path `matchesPath` accepted. */
export function pathParams(pattern: PathPattern, segments: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  let n = 0;
  for (let i = 0; i < pattern.segments.length; i++) if (pattern.segments[i] === null) params[pattern.names[n++]] = segments[i];
  return params;
}

/** A segment of a route's path as the router knows it: literal text, one segment of anything, or any number of segments. */
export type TemplateSegment = string | { any: 'segment' | 'rest' };

/**
 * A route path (`/v1/pets/{petId}`, `/files/{name}.{ext}`, `/legacy/**`) read conservatively:
 * a segment holding a parameter may be anything, `**` any number of segments.
 */
export function templateSegments(path: string): TemplateSegment[] {
  return trimSlashes(path).map((segment) => (segment === '**' ? { any: 'rest' } : segment.includes('{') ? { any: 'segment' } : decodeSegment(segment)));
}

/** Whether some request path matches both the mock's pattern and the route's template. */
export function patternsOverlap(pattern: PathPattern, template: readonly TemplateSegment[]): boolean {
  const own = pattern.segments;
  for (let i = 0; i < template.length; i++) {
    const segment = template[i];
    if (typeof segment !== 'string' && segment.any === 'rest') return own.length >= i;
    if (i >= own.length) return false;
    if (typeof segment === 'string' && own[i] !== null && own[i] !== segment) return false;
  }
  return own.length === template.length;
}

function trimSlashes(path: string): string[] {
  const end = path.length > 1 && path.endsWith('/') ? path.length - 1 : path.length;
  const inner = path.slice(1, end);
  return inner === '' ? [] : inner.split('/');
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
