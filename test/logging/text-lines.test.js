// `mock serve` at the default level and format, under load: each request line and each second's
// summary is one line. pino-pretty printed the summary's fields (requests_not_shown, statuses,
// lines_per_second) on seven more lines under it, repeating the counts the message tells. (Fields
// that explain a message, such as a warning's validation errors, still follow it: api-auth, serve-logs.)
import t from 'tap';
import { serveWith, until } from './helpers.js';

const LINE = /^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN|ERROR): \S/;

t.test('under load, the text log is one line a request or a second, no more', async (t) => {
  const server = await serveWith('validation:\n  mode: enforce\n');
  t.teardown(() => server.stop());
  // well past the 50 lines a second of the default, in a bounded burst
  for (let round = 0; round < 8; round++) {
    await Promise.all(Array.from({ length: 50 }, async (_, i) => (await fetch(`${server.url}/${i % 5 === 0 ? 'nowhere' : 'v1/pets/1'}`)).text()));
  }
  await until(() => /more requests in the last second/.test(server.stdout), 5_000, 'a summary line');
  t.equal(await server.stop(), 0);

  const lines = server.stdout.split('\n').filter((line) => line !== '' && !line.startsWith('mock: '));
  const summaries = lines.filter((line) => line.includes('more requests in the last second'));
  t.ok(summaries.length >= 1, 'summed up');
  t.match(summaries[0], /INFO: … [\d,]+ more requests in the last second \(200 ×[\d,]+, 404 ×[\d,]+\); one line per request again below 50\/s$/);
  t.same(lines.filter((line) => !LINE.test(line)), [], 'every line is a log line of its own: no field printed under a message');
});
