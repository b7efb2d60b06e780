import { bundle, createConfig, Source } from '../bundled/redocly.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { MockError } from '../../common/errors.js';
import { redactUrlCredentials, redactUrlsInText } from '../../common/redacted.js';
import { dialectOf } from './to-openapi3.js';
import { isUrl } from '../fingerprint.js';
import { ConfinedResolver, type RefusedRef } from './confined-resolver.js';
import { refPolicy } from './ref-policy.js';
import { withSelfReferences } from './self-uri.js';

export interface RawDescription {
  /** The --spec value as given. */
  source: string;
  /** Absolute path or URL actually read. */
  location: string;
  /** The exact bytes read, hashed into manifest.json. */
  text: string;
  /** The bundled document: external $refs pulled in, internal $refs kept. */
  document: Record<string, unknown>;
  /** Every file or URL the document was read from: itself, then the external $ref targets. */
  files: string[];
}

/**
 * Reads one description (file or URL) and bundles its external $refs with @redocly/openapi-core.
 * The root is parsed here with `yaml` (YAML 1.2): real descriptions such as Docker's trip up
 * the stricter js-yaml fork the bundler uses. `cwd` is the project folder; external $refs stay in
 * it, in the description's folder (or under its URL's folder), or in `allowRefs` (--allow-ref:
 * absolute folders and http(s) URL prefixes); see ref-policy.ts.
 */
export async function readDescription(source: string, cwd: string, allowRefs: readonly string[] = []): Promise<RawDescription> {
  const location = isUrl(source) ? source : path.resolve(cwd, source);
  const text = isUrl(source) ? await fetchText(source) : readLocal(source, location);
  const parsed = parseText(source, text);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new MockError('MOCK_ERR_SPEC_INVALID', `${source}: not an OpenAPI or Swagger document (expected a YAML or JSON object with an "openapi" or "swagger" field)`);
  }
  dialectOf(source, parsed as Record<string, unknown>);
  const document = withSelfReferences(parsed as Record<string, unknown>);
  const config = await createConfig({});
  const resolver = new ConfinedResolver(refPolicy(location, cwd, allowRefs));
  let result;
  try {
    result = await bundle({ doc: { source: new Source(location, text), parsed: document }, config, externalRefResolver: resolver });
  } catch (e) {
    throw new MockError('MOCK_ERR_SPEC_REF', `${source}: cannot bundle: ${(e as Error).message.replace(/\s+/g, ' ')}`);
  }
  if (resolver.refused !== undefined) throw refusedError(source, location, resolver.refused);
  const unresolved = result.problems.find((p) => p.message.startsWith("Can't resolve $ref"));
  if (unresolved) {
    const where = unresolved.location?.[0]?.pointer ?? '';
    throw new MockError('MOCK_ERR_SPEC_REF', `${source}: ${unresolved.message} at ${where} (fix the $ref or add the referenced file)`);
  }
  return { source, location, text, document: result.bundle.parsed as Record<string, unknown>, files: [location, ...[...result.fileDependencies].sort()] };
}

/** One line: the description, the $ref (and the file holding it when not the description), where $refs must stay, the flag. */
function refusedError(source: string, location: string, { ref, from, refusal }: RefusedRef): MockError {
  const holder = from === undefined || from === location ? '' : ` in ${isUrl(from) ? from : path.relative(path.dirname(location), from)}`;
  const allow = refusal.allowValue === undefined ? 'rewrite it' : `pass --allow-ref ${refusal.allowValue} to allow it`;
  return new MockError(
    'MOCK_ERR_SPEC_REF_REFUSED',
    `${source}: the $ref ${JSON.stringify(ref)}${holder} ${refusal.problem}; external $refs must stay in ${refusal.allowed} (${allow})`,
  );
}

function readLocal(source: string, location: string): string {
  if (!existsSync(location)) {
    throw new MockError('MOCK_ERR_SPEC_NOT_FOUND', `spec not found: ${source} (checked ${location}; pass an existing file or URL with --spec)`);
  }
  try {
    return readFileSync(location, 'utf8');
  } catch (e) {
    throw new MockError('MOCK_ERR_SPEC_NOT_FOUND', `spec not readable: ${source} (${(e as Error).message})`);
  }
}

async function fetchText(url: string): Promise<string> {
  // errors reach terminals and CI logs: a password in the URL is shown as [redacted] (fetch's own message quotes the URL)
  const shown = redactUrlCredentials(url);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
    throw new MockError('MOCK_ERR_SPEC_FETCH', `${shown}: cannot fetch: ${redactUrlsInText(cause)} (check the URL and that the server is reachable)`);
  }
  if (!response.ok) throw new MockError('MOCK_ERR_SPEC_FETCH', `${shown}: cannot fetch: HTTP ${response.status} (check the URL)`);
  return response.text();
}

function parseText(source: string, text: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch {
      // not strict JSON: YAML is a superset, let it report the position
    }
  }
  try {
    return parseYaml(text, { maxAliasCount: 10_000, uniqueKeys: false });
  } catch (e) {
    if (e instanceof YAMLParseError) {
      const pos = e.linePos?.[0];
      const at = pos ? `:${pos.line}:${pos.col}` : '';
      const reason = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      throw new MockError('MOCK_ERR_SPEC_PARSE', `${source}${at}: invalid YAML/JSON: ${reason} (fix the syntax at that position)`);
    }
    throw new MockError('MOCK_ERR_SPEC_PARSE', `${source}: cannot parse: ${(e as Error).message}`);
  }
}
