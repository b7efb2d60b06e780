import { storedBody } from '../../../../common/fixtures/index.js';
import { CONVERT_FORMATS, convertRecording, type ConvertFormat, type RecorderDb, type Recording } from '../../../chain/recorder/index.js';
import { clusterRecorder } from '../cluster-questions.js';
import type { AdminContext } from '../context.js';
import { AdminError, ok } from '../envelope.js';
import type { AdminCall, AdminRoute } from '../router.js';
import { wholeNumber } from '../query-number.js';

const LISTING = 'GET /__mock/api/recorder/recordings lists them';

function recorderOf(ctx: AdminContext): RecorderDb {
  if (ctx.recorder === undefined) throw new AdminError(404, 'the recorder is off: start mock serve with --recorder (recorder.enabled in mock.yaml) to record exchanges');
  return ctx.recorder;
}

async function recordingOf(call: AdminCall): Promise<Recording> {
  const { id } = call.params;
  if (!/^[1-9]\d{0,14}$/.test(id)) throw new AdminError(400, `recording id: expected a whole number from 1 (${LISTING}), got "${id}"`);
  const recording = await recorderOf(call.ctx).get(Number(id));
  if (recording === undefined) throw new AdminError(404, `no recording ${id} (${LISTING})`);
  return recording;
}

/** A body as JSON carries it: text, or base64 with `body_encoding` when its bytes are not text. */
function bodyView(body: Uint8Array, contentType: string | string[] | undefined): { body: string; body_encoding?: string } {
  const stored = storedBody(body, Array.isArray(contentType) ? contentType[0] : contentType);
  return stored.encoding === undefined ? { body: stored.text } : { body: stored.text, body_encoding: stored.encoding };
}

function view(r: Recording): Record<string, unknown> {
  return {
    id: r.id,
    recorded_at: r.recorded_at,
    duration_ms: r.duration_ms,
    protocol: r.protocol,
    route: r.route,
    client_address: r.client_address,
    request: { method: r.method, path: r.path, query: r.query, headers: r.request_headers, ...bodyView(r.request_body, r.request_headers['content-type']) },
    response: { status: r.status, headers: r.response_headers, ...bodyView(r.response_body, r.response_headers['content-type']) },
  };
}

function formatOf(call: AdminCall): ConvertFormat {
  const body = call.json();
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) throw new AdminError(400, 'the body must be {"format": "yaml"} or {"format": "json"}');
  const format = (body as { format?: unknown } | undefined)?.format ?? 'yaml';
  if (!(CONVERT_FORMATS as readonly unknown[]).includes(format)) throw new AdminError(400, `format: expected yaml (custom routes for mock.yaml) or json (a fixture file), got ${JSON.stringify(format)}`);
  return format as ConvertFormat;
}

/** The recorder database (mock serve --recorder): listing, reading and converting recordings; the spec's POST /api/recorder/convert/{id}. */
export const recorderRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: 'recorder/recordings',
    handler: async ({ ctx, query }) => {
      const recorder = recorderOf(ctx);
      const limit = wholeNumber(query, 'limit', 50, 1, 1000);
      const offset = wholeNumber(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
      // with workers, each writes what it queued first: the listing then holds every request answered before it
      const cluster = ctx.cluster === undefined ? undefined : await clusterRecorder(ctx.cluster, recorder.stats());
      const listing = await recorder.list(limit, offset);
      return ok({ ...listing, limit, offset, recorder: cluster ?? recorder.stats() });
    },
  },
  { method: 'GET', path: 'recorder/recordings/{id}', handler: async (call) => ok(view(await recordingOf(call))) },
  {
    method: 'POST',
    path: 'recorder/convert/{id}',
    handler: async (call) => {
      const format = formatOf(call);
      const recording = await recordingOf(call);
      const { fileName, text } = convertRecording(recording, format);
      return ok({ recording_id: recording.id, format, file_name: fileName, content: text });
    },
  },
];
