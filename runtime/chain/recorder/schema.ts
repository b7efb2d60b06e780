/**
 * The recordings table (docs/recorder-database.md): one row per answered exchange, both
 * directions, credentials redacted as the request log redacts them. `PRAGMA user_version` is the
 * table's version, so that a later change of columns can tell old files apart.
 */
export const RECORDINGS_TABLE = 'recordings';

export const SCHEMA_VERSION = 1;

export const CREATE_SCHEMA = `
CREATE TABLE IF NOT EXISTS recordings (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  recorded_at      TEXT    NOT NULL,
  duration_ms      REAL    NOT NULL,
  protocol         TEXT    NOT NULL,
  method           TEXT    NOT NULL,
  path             TEXT    NOT NULL,
  query            TEXT    NOT NULL,
  request_headers  TEXT    NOT NULL,
  request_body     BLOB,
  status           INTEGER NOT NULL,
  response_headers TEXT    NOT NULL,
  response_body    BLOB,
  route            TEXT,
  client_address   TEXT    NOT NULL
);
PRAGMA user_version = ${SCHEMA_VERSION};
`;

const COLUMNS = [
  'recorded_at',
  'duration_ms',
  'protocol',
  'method',
  'path',
  'query',
  'request_headers',
  'request_body',
  'status',
  'response_headers',
  'response_body',
  'route',
  'client_address',
] as const;

/** Columns whose values the writer binds as UTF-8 bytes (row-pack.ts): the statement makes them text again. */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(['protocol', 'method', 'path', 'query', 'request_headers', 'response_headers', 'route', 'client_address']);

export const INSERT_RECORDING = `INSERT INTO recordings (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((column) => (TEXT_COLUMNS.has(column) ? 'CAST(? AS TEXT)' : '?')).join(', ')})`;

/** One recorded exchange as read back. */
export interface Recording {
  id: number;
  /** ISO 8601 UTC: when the answer was written. */
  recorded_at: string;
  /** From the request's arrival to the answer written. */
  duration_ms: number;
  protocol: string;
  method: string;
  /** As received: percent-encoded, without the query. */
  path: string;
  /** The raw query string without `?`, secret parameters redacted. */
  query: string;
  /** Lower-case names. */
  request_headers: Record<string, string>;
  /** Empty when the request had none. */
  request_body: Uint8Array;
  status: number;
  /** Lower-case names; a header sent more than once as a list. */
  response_headers: Record<string, string | string[]>;
  response_body: Uint8Array;
  /** The route it counted under (`GET /v1/pets/{petId}`); null when none matched. */
  route: string | null;
  client_address: string;
}

/** The columns a listing shows (no headers nor bodies). */
export type RecordingSummary = Pick<Recording, 'id' | 'recorded_at' | 'duration_ms' | 'protocol' | 'method' | 'path' | 'query' | 'status' | 'route' | 'client_address'>;

export const SUMMARY_COLUMNS = 'id, recorded_at, duration_ms, protocol, method, path, query, status, route, client_address';

const EMPTY = new Uint8Array(0);

/** A row of `SELECT *` as a Recording. */
export function recordingOf(row: Record<string, unknown>): Recording {
  return {
    ...(summaryOf(row) as RecordingSummary),
    request_headers: JSON.parse(String(row.request_headers)) as Record<string, string>,
    request_body: (row.request_body as Uint8Array | null) ?? EMPTY,
    response_headers: JSON.parse(String(row.response_headers)) as Record<string, string | string[]>,
    response_body: (row.response_body as Uint8Array | null) ?? EMPTY,
  };
}

export function summaryOf(row: Record<string, unknown>): RecordingSummary {
  return {
    id: Number(row.id),
    recorded_at: String(row.recorded_at),
    duration_ms: Number(row.duration_ms),
    protocol: String(row.protocol),
    method: String(row.method),
    path: String(row.path),
    query: String(row.query),
    status: Number(row.status),
    route: row.route === null ? null : String(row.route),
    client_address: String(row.client_address),
  };
}
