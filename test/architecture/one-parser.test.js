// Solved problems have one implementation, a well-kept library's where there is one (issue 37, item
// 19): durations are read by common/duration.ts only (the bench's flags add bare seconds on top),
// multipart bodies by @fastify/busboy and Cookie headers by the cookie package, each imported in one
// file of the Exchange; no source reads a boundary or a Content-Disposition by hand.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { root } from '../helpers/cli.js';

const SOURCES = ['*.ts', ':!*.generated.ts', ':!*.d.ts'];
/** Files whose text matches the extended regular expression. */
function filesMatching(pattern) {
  try {
    return execFileSync('git', ['grep', '-l', '-E', pattern, '--', ...SOURCES], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean).sort();
  } catch (e) {
    if (e.status === 1) return []; // git grep: no match
    throw e;
  }
}

t.test('one duration grammar', async (t) => {
  t.same(filesMatching('\\(ms\\|s\\|m\\|h'), ['common/duration.ts'], 'a unit alternation such as (ms|s|m|h|d) is written once');
  t.same(filesMatching('[{ ]ms: 1, '), ['common/duration.ts'], 'one table of unit lengths');
  t.same(filesMatching("from '(\\.\\./)+common/duration\\.js'").includes('src/bench/units.ts'), true, "the bench's units use it");
});

t.test('multipart bodies and cookies are parsed by libraries', async (t) => {
  t.same(filesMatching("'@fastify/busboy'"), ['runtime/chain/exchange/multipart.ts']);
  t.same(filesMatching("from 'cookie'"), ['runtime/chain/exchange/query.ts']);
  t.same(filesMatching('boundary=\\(|name="\\(\\[\\^"\\]'), [], 'no regular expression reads a boundary parameter or a part name');
});
