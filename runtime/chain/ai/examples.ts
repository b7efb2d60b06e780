import { responseBodyOf } from '../../../common/fixtures/index.js';
import type { FixtureStore } from '../fixtures/index.js';
import type { RecorderDb } from '../recorder/index.js';

/** Recordings a retrieval looks through, newest first: a search costs the same however large the database grows. */
const RECENT_RECORDINGS = 200;

/** Examples of real answers of one operation (ai.rag_provider), as text for the prompt. */
export type ExampleSource = (operation: string, limit: number) => Promise<string[]>;

/** The newest 2xx answers the recorder database holds for the route. */
export function recorderExamples(db: RecorderDb): ExampleSource {
  return async (operation, limit) => {
    const { recordings } = await db.list(RECENT_RECORDINGS, 0);
    const ids = recordings.filter((r) => r.route === operation && r.status >= 200 && r.status < 300).slice(0, limit);
    const found = await Promise.all(ids.map((r) => db.get(r.id)));
    return found.flatMap((r) => (r === undefined || r.response_body.byteLength === 0 ? [] : [Buffer.from(r.response_body).toString('utf8')]));
  };
}

/** The 2xx answers of fixture files whose request the route matches (method, and the path by its template). */
export function fixtureExamples(store: FixtureStore): ExampleSource {
  return async (operation, limit) => {
    const [method, template] = splitKey(operation);
    const matches = pathMatcher(template);
    return store
      .list()
      .filter(({ fixture }) => fixture.fingerprint.method === method && fixture.status_code >= 200 && fixture.status_code < 300 && matches(fixture.fingerprint.path))
      .slice(0, limit)
      .map(({ fixture }) => Buffer.from(responseBodyOf(fixture)).toString('utf8'));
  };
}

function splitKey(key: string): [string, string] {
  const space = key.indexOf(' ');
  return [key.slice(0, space), key.slice(space + 1).split('?')[0]];
}

/** Whether a path fits a template (`/v1/pets/{petId}`), segment by segment: a `{…}` segment takes any one non-empty segment. */
function pathMatcher(template: string): (path: string) => boolean {
  const expected = template.split('/');
  return (path) => {
    const given = path.split('/');
    return given.length === expected.length && expected.every((part, i) => (part.startsWith('{') && part.endsWith('}') ? given[i] !== '' : part === given[i]));
  };
}
