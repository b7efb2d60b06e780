import type { LoggedBody } from '../../../common/request-log.js';
import type { LogEntry } from '../types';

/** The status a row shows: a gRPC call's own (DEADLINE_EXCEEDED), else the HTTP code. */
export const statusText = (e: LogEntry): string => e.grpc?.status ?? String(e.status_code);

/** Why the request was refused or failed: the catalogue code and its detail (what X-Mock-Error-Detail said). */
export function EntryReason({ entry }: { entry: LogEntry }) {
  if (entry.error === undefined) return null;
  return (
    <p class="error wrap" data-testid="entry-reason">
      <code>{entry.error.code}</code> {entry.error.detail}
    </p>
  );
}

/** The bodies the log kept (logging.bodies), credentials already redacted by the server. */
export function EntryBodies({ entry }: { entry: LogEntry }) {
  return (
    <>
      {entry.request_body !== undefined && <Body title="Request body" body={entry.request_body} />}
      {entry.response_body !== undefined && <Body title="Response body" body={entry.response_body} />}
    </>
  );
}

function Body({ title, body }: { title: string; body: LoggedBody }) {
  const kept = body.encoding === 'base64' ? 'binary, as base64' : body.content_type;
  return (
    <section data-testid={title.toLowerCase().replace(' ', '-')}>
      <h4>{title}</h4>
      <p class="muted">
        {body.size.toLocaleString('en-US')} bytes{kept !== undefined && ` · ${kept}`}
        {body.truncated === true && ' · truncated: the first bytes only (logging.bodies.max_body_bytes)'}
      </p>
      <pre class="wrap">{body.text}</pre>
    </section>
  );
}
