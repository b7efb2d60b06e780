import { BaseResolver, type Document, type ResolveError, type YamlParseError } from '../bundled/redocly.js';
import type { RefPolicy, RefRefusal } from './ref-policy.js';

/** Redirects followed for a $ref URL, each checked against the policy like the URL itself. */
const MAX_REDIRECTS = 5;

export interface RefusedRef {
  /** The $ref as written (without its `#` fragment), or the URL that redirected. */
  ref: string;
  /** The file or URL that holds it, when known. */
  from?: string;
  refusal: RefRefusal;
}

/**
 * The bundler's resolver, reading only what the policy allows: every external $ref (and example
 * `externalValue`) is checked before it is read, and a URL's redirects before they are followed.
 * The bundler records a failed $ref as unresolved and goes on, so the first refusal is kept here
 * for readDescription to report.
 */
export class ConfinedResolver extends BaseResolver {
  refused: RefusedRef | undefined;

  constructor(private readonly policy: RefPolicy) {
    super();
    this.config.http.customFetch = (url: string, init: RequestInit) => this.fetchWithin(url, init);
  }

  override resolveDocument<T = unknown>(base: string | null, ref: string, isRoot?: boolean): Promise<Document<T> | ResolveError | YamlParseError> {
    const refusal = this.policy.refusal(this.resolveExternalRef(base, ref));
    if (refusal !== undefined) return this.refuse({ ref, from: base ?? undefined, refusal });
    return super.resolveDocument<T>(base, ref, isRoot);
  }

  private refuse(refused: RefusedRef): Promise<never> {
    this.refused ??= refused;
    return Promise.reject(new Error(`$ref ${refused.ref} ${refused.refusal.problem}`));
  }

  private async fetchWithin(url: string, init: RequestInit): Promise<Response> {
    let current = url;
    for (let hop = 0; ; hop++) {
      const response = await fetch(current, { ...init, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || location === null) return response;
      if (hop === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects from ${url}`);
      current = new URL(location, current).href;
      const refusal = this.policy.refusal(current);
      if (refusal !== undefined) return this.refuse({ ref: url, refusal: { ...refusal, problem: `redirects to ${current}, which ${refusal.problem}` } });
    }
  }
}
