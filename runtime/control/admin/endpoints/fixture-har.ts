import { MockError } from '../../../../common/errors.js';
import { fromHar, toHar } from '../../../../common/fixtures/index.js';
import { AdminError, ok } from '../envelope.js';
import type { AdminRoute } from '../router.js';
import { storeOf } from './fixtures.js';

/** HAR 1.2 export and import of the fixture folder (what browsers' developer tools save and open). */
export const fixtureHarRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: 'fixtures/har',
    handler: ({ ctx, query }) => {
      const store = storeOf(ctx);
      const origin = query.get('origin') ?? 'http://localhost';
      if (!URL.canParse(origin)) throw new AdminError(400, `GET /__mock/fixtures/har: origin "${origin}" is not a URL such as https://api.example.com`);
      const har = toHar(store.list().map((f) => f.fixture), new URL(origin).origin);
      return { status: 200, headers: [['content-type', 'application/json; charset=utf-8'], ['content-disposition', 'attachment; filename="fixtures.har"']], body: JSON.stringify(har, null, 2) };
    },
  },
  {
    method: 'POST',
    path: 'fixtures/har',
    handler: async (call) => {
      const store = storeOf(call.ctx);
      let imported: ReturnType<typeof fromHar>;
      try {
        imported = fromHar(call.json(), store.settings.rules, store.secrets);
      } catch (e) {
        if (e instanceof MockError) throw new AdminError(400, `POST /__mock/fixtures/har: ${e.message}`);
        throw e;
      }
      const { fixtures } = imported;
      // the store holds HTTP fixtures: WebSocket sessions are said to be left out, not dropped silently
      const problems = [...imported.problems, ...imported.sessions.map((s) => `entries[${s.index}]: WebSocket ${s.path}: this endpoint imports HTTP fixtures; mock fixtures import saves WebSocket sessions: skipped`)];
      if (fixtures.length === 0 && problems.length > 0) throw new AdminError(400, `POST /__mock/fixtures/har: ${problems[0]}`);
      const created = [];
      for (const fixture of fixtures) created.push(await store.create(fixture));
      call.ctx.logger.info({ imported: created.length }, 'admin: fixtures imported from HAR');
      return ok({ imported: created.length, files: created.map((f) => store.shown(f.file)), problems }, 201);
    },
  },
];
