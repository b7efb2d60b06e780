import { Document, isMap, type YAMLSeq } from 'yaml';
import { BASE64, fingerprintKey, fingerprintOf, fingerprintRules, fixtureFileName, fixtureText, queryMap, storedBody, type Fixture, type FixtureRequest } from '../../../common/fixtures/index.js';
import type { Recording } from './schema.js';

/** `json`: fixture files (common/fixtures); `yaml`: custom routes for mock.yaml's http.routes. */
export const CONVERT_FORMATS = ['yaml', 'json'] as const;
export type ConvertFormat = (typeof CONVERT_FORMATS)[number];

/** A converted text and the file name it suggests. */
export interface Converted {
  fileName: string;
  text: string;
}

/** No rules beyond method, path and query: what a fixture without core.fixtures settings is replayed by. */
const RULES = fingerprintRules({ ignore_query_params: [], match_headers: [], match_body: false });

/** Headers the server writes itself (or that describe one transfer): a route or fixture that kept them would send them twice or wrong. */
const TRANSFER_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

const firstValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** One recording as a fixture file; `sequence` numbers repeats of the same request (file name and metadata). */
export function toFixture(recording: Recording, sequence?: number): Converted {
  const { method, path, query, request_headers, request_body, response_headers, response_body } = recording;
  const fingerprint = fingerprintOf({ method, path, query: queryMap(query), headers: request_headers, body: request_body }, RULES);
  const response = storedBody(response_body, firstValue(response_headers['content-type']));
  const metadata: Record<string, string> = { name: `${method} ${path}`, source: 'recorder', recording_id: String(recording.id) };
  if (response.encoding !== undefined) metadata.body_encoding = BASE64;
  if (sequence !== undefined) metadata.sequence = String(sequence);
  const sent = storedBody(request_body, request_headers['content-type']);
  const request: FixtureRequest = { headers: request_headers };
  if (query !== '') request.query = query;
  if (sent.text !== '') request.body = sent.text;
  if (sent.encoding !== undefined) request.body_encoding = BASE64;
  const headers = Object.fromEntries(Object.entries(response_headers).filter(([name]) => !TRANSFER_HEADERS.has(name)));
  const fixture: Fixture = { fingerprint, timestamp: recording.recorded_at, status_code: recording.status, response_headers: headers, response_body: response.text, metadata, request };
  return { fileName: fixtureFileName(fingerprint, fingerprintKey(fingerprint, RULES), sequence ?? 1), text: fixtureText(fixture) };
}

/** Recordings (oldest first) as fixture files; repeats of one request are numbered in the order they happened. */
export function toFixtures(recordings: readonly Recording[]): Converted[] {
  const keys = recordings.map((r) => fingerprintKey(fingerprintOf({ method: r.method, path: r.path, query: queryMap(r.query), headers: {} }, RULES), RULES));
  const total = new Map<string, number>();
  for (const key of keys) total.set(key, (total.get(key) ?? 0) + 1);
  const seen = new Map<string, number>();
  return recordings.map((recording, i) => {
    const n = (seen.get(keys[i]) ?? 0) + 1;
    seen.set(keys[i], n);
    return toFixture(recording, (total.get(keys[i]) as number) > 1 ? n : undefined);
  });
}

/** One route of http.routes answering as the recording did, or why its body cannot be one. */
function routeOf(recording: Recording): { route: Record<string, unknown>; note?: string } {
  const type = firstValue(recording.response_headers['content-type']);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(recording.response_headers)) {
    if (name !== 'content-type' && !TRANSFER_HEADERS.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const response: Record<string, unknown> = { status: recording.status };
  if (Object.keys(headers).length > 0) response.headers = headers;
  if (type !== undefined) response.content_type = type;
  let note: string | undefined;
  if (recording.response_body.byteLength > 0) {
    const body = storedBody(recording.response_body, type);
    if (body.encoding !== undefined) note = `its ${recording.response_body.byteLength}-byte ${type ?? ''} body is not text, which a custom route cannot hold: left out (the json format keeps it)`;
    else response.body = type !== undefined && /[/+]json\b/i.test(type) ? parsedOr(body.text) : body.text;
  }
  const route: Record<string, unknown> = { method: recording.method, path: recording.path };
  const query = queryConditions(recording.query);
  if (query !== undefined) route.match = { query };
  route.response = response;
  return { route, note };
}

function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `/…/` reads as a pattern in route conditions (docs/configuration.md, "Conditions"): such values match by equality. */
const SLASHED = /^\/.*\/[a-z]*$/s;

/** The recorded query as conditions on the first value of each parameter (as routes compare); a redacted value matches by presence. */
function queryConditions(raw: string): Record<string, unknown> | undefined {
  const params = queryMap(raw);
  if (params.size === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, [value]] of params) out[name] = value === '[redacted]' ? { present: true } : SLASHED.test(value) ? { equals: value } : value;
  return out;
}

/**
 * Recordings as a mock.yaml fragment of custom routes. The newest answer of a request (method,
 * path, query) wins; routes with more query conditions come first, so a route without conditions
 * on the same path does not shadow them.
 */
export function toRoutesYaml(recordings: readonly Recording[]): string {
  const chosen = new Map<string, { recording: Recording; route: Record<string, unknown>; note?: string; conditions: number }>();
  for (const recording of [...recordings].reverse()) {
    const { route, note } = routeOf(recording);
    const key = JSON.stringify([route.method, route.path, route.match ?? null]);
    if (!chosen.has(key)) chosen.set(key, { recording, route, note, conditions: Object.keys((route.match as { query?: object } | undefined)?.query ?? {}).length });
  }
  const entries = [...chosen.values()].sort((a, b) => b.conditions - a.conditions);
  const doc = new Document({ http: { routes: entries.map((e) => e.route) } });
  const skipped = recordings.length - entries.length;
  doc.commentBefore = ` ${recordings.length === 1 ? `recording ${recordings[0].id}` : `${recordings.length} recordings`} of mock serve --recorder as custom routes: merge into http.routes of mock.yaml${skipped > 0 ? ` (${skipped} older answer(s) of the same requests left out)` : ''}`;
  const routes = (doc.get('http') as { get(key: string): unknown }).get('routes') as YAMLSeq;
  routes.items.forEach((item, i) => {
    const { recording, note } = entries[i];
    if (isMap(item)) item.commentBefore = ` recording ${recording.id}, ${recording.recorded_at}${note === undefined ? '' : `: ${note}`}`;
  });
  return doc.toString({ lineWidth: 0 });
}

/** One recording in `format`, with the file name it suggests. */
export function convertRecording(recording: Recording, format: ConvertFormat): Converted {
  if (format === 'json') return toFixture(recording);
  return { fileName: `recording-${recording.id}.yaml`, text: toRoutesYaml([recording]) };
}
