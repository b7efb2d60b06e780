import { requestBodyOf, responseBodyOf, type Fixture } from '../../../common/fixtures/index.js';
import type { Capture } from '../../../runtime/index.js';

/** A fixture file as a capture (`fixture:<relative path>`): the request as recorded, else its fingerprint's. */
export function captureOfFixture(fixture: Fixture, relative: string): Capture {
  const { fingerprint, request } = fixture;
  const query = request?.query;
  const capture: Capture = {
    id: `fixture:${relative}`,
    method: fingerprint.method,
    path: query !== undefined && query !== '' ? `${fingerprint.path}?${query}` : fingerprint.path,
    headers: { ...(request?.headers ?? fingerprint.headers) },
    query_params: query === undefined ? { ...fingerprint.query_params } : {},
  };
  const body = requestBodyOf(fixture);
  if (body !== undefined && body.byteLength > 0) capture.body = body.toString('utf8');
  const answer = responseBodyOf(fixture);
  capture.response = { status: fixture.status_code, headers: { ...fixture.response_headers } };
  const answerText = typeof answer === 'string' ? answer : Buffer.from(answer).toString('utf8');
  if (answerText !== '') capture.response.body = answerText;
  return capture;
}
