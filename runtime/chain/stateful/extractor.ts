import { compileJsonPath, firstValue } from '../../match/index.js';
import type { ResourceIdExtract } from './config.js';

/** What a resource id is read from. */
export interface IdSource {
  /** The `{param}` values of the path_pattern the request matched. */
  readonly params: Readonly<Record<string, string>>;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body; read only by json_path extractors. */
  body(): unknown;
}

/** A resource id, or undefined when the request carries none. */
export type Extractor = (source: IdSource) => string | undefined;

/**
 * resource_id_extract compiled once: path_param reads the matched pattern's parameter, header a
 * request header, json_path the first value the path (RFC 9535, through the match module) selects
 * in the JSON body, composite the first of its extractors that yields an id. Only non-empty text and
 * finite numbers are ids. Throws PatternError for a malformed JSONPath.
 */
export function compileExtractor(spec: ResourceIdExtract): Extractor {
  switch (spec.type) {
    case 'path_param': {
      const { param } = spec;
      return ({ params }) => nonEmpty(Object.hasOwn(params, param) ? params[param] : undefined);
    }
    case 'header': {
      const name = spec.name.toLowerCase();
      return ({ headers }) => nonEmpty(Object.hasOwn(headers, name) ? headers[name] : undefined);
    }
    case 'json_path': {
      const path = compileJsonPath(spec.path);
      return (source) => idOf(firstValue(path, source.body()));
    }
    case 'composite': {
      const extractors = spec.extractors.map(compileExtractor);
      return (source) => {
        for (const extract of extractors) {
          const id = extract(source);
          if (id !== undefined) return id;
        }
        return undefined;
      };
    }
  }
}

const nonEmpty = (text: string | undefined): string | undefined => (text === '' ? undefined : text);

function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return nonEmpty(value);
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}
