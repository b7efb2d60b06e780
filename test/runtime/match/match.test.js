// runtime/match: the one path-glob dialect, path patterns and how they meet route templates.
import t from 'tap';
import { compileGlob, globMayReach, matchesPath, parsePathPattern, pathParams, patternsOverlap, requestPath, splitRequestPath, templateSegments } from '../../../dist/runtime/match/index.js';
import { growth } from '../../helpers/timing.js';

const glob = (pattern, path) => compileGlob(pattern).test(requestPath(path));

t.test('path globs: * within one segment, ** any number of segments, the rest literal', async (t) => {
  t.ok(glob('/a/*', '/a/b'));
  t.notOk(glob('/a/*', '/a/b/c'), '* stays in one segment');
  t.ok(glob('/a/*.json', '/a/pets.json'));
  t.ok(glob('/a/x*', '/a/x'), '* may be empty');
  t.ok(glob('/a/**', '/a'), '** may be no segment at all');
  t.ok(glob('/a/**', '/a/b/c'));
  t.ok(glob('/a/**/z', '/a/z'));
  t.ok(glob('/a/**/z', '/a/b/c/z'));
  t.notOk(glob('/a/**', '/ab'), 'not a prefix match');
  t.ok(glob('/**', '/anything/at/all'));
  t.ok(glob('**', '/x/y'), 'the leading slash may be left out');
  t.ok(glob('/v1.0/{id}', '/v1.0/{id}'), 'pattern characters are literal');
  t.notOk(glob('/v1.0/x', '/v1x0/x'));
  t.ok(glob('/a?b', '/a?b'));
  t.ok(glob('/files/my%20file.txt', '/files/my file.txt'), 'segments compare decoded');
  t.ok(glob('/a/b/', '/a/b'), 'a trailing slash is ignored on both sides');
  t.ok(glob('/a/b', '/a/b/'));
  t.ok(glob('/', '/'));
  t.notOk(glob('/a', '/b'), 'no *: the path itself');
  // a backtracking engine takes time exponential in the stars on this glob: never done at 4,000 characters
  const slow = compileGlob(`/${'*a'.repeat(12)}*b`);
  t.notOk(slow.test(`/${'a'.repeat(60)}`));
  const eightfold = growth((n) => slow.test(`/${'a'.repeat(n)}`), 4_000, 32_000);
  t.ok(eightfold < 8 * 3, `linear time on a glob that backtracks in a backtracking engine: 8 times the path, ${eightfold.toFixed(1)} times the time`);
});

t.test('path patterns: static segments and whole {param} segments', async (t) => {
  const pattern = parsePathPattern('/users/{id}/posts/{post}');
  const segments = splitRequestPath('/users/a%20b/posts/7/');
  t.ok(matchesPath(pattern, segments));
  t.same(pathParams(pattern, segments), { id: 'a b', post: '7' });
  t.notOk(matchesPath(pattern, splitRequestPath('/users//posts/7')), 'a parameter is never empty');
  t.throws(() => parsePathPattern('users'), { name: 'PatternError', message: /must start with \// });
  t.throws(() => parsePathPattern('/files/{id}.json'), { message: /must be plain text or one whole \{param\}/ });
});

t.test('whether a pattern can reach a route: requests both could match', async (t) => {
  const overlap = (pattern, route) => patternsOverlap(parsePathPattern(pattern), templateSegments(route));
  t.ok(overlap('/pets/{id}', '/pets/{petId}'));
  t.ok(overlap('/pets/mine', '/pets/{petId}'), 'a concrete path under a template');
  t.ok(overlap('/pets/{id}', '/pets/mine'), 'a parameter over a static route');
  t.notOk(overlap('/pets/{id}', '/owners/{id}'));
  t.notOk(overlap('/pets', '/pets/{id}'), 'another length');
  t.ok(overlap('/files/a', '/files/{name}.{ext}'), 'segments holding parameters may be anything');
  t.ok(overlap('/legacy/a/b', '/legacy/**'), '** takes the rest');
  t.ok(overlap('/legacy', '/legacy/**'));
  t.notOk(overlap('/other/a', '/legacy/**'));
  t.ok(overlap('/', '/'));
});

t.test('whether a glob can reach a route template (stages that select by glob run only there)', async (t) => {
  const reach = (glob, route) => globMayReach(glob, templateSegments(route));
  t.ok(reach('/v1/pets/*', '/v1/pets/{petId}'));
  t.ok(reach('/v1/pets/1', '/v1/pets/{petId}'), 'a parameter may be anything');
  t.ok(reach('/v1/**', '/v1/pets/{petId}'));
  t.ok(reach('/v1/**', '/v1'), '** may be nothing');
  t.ok(reach('/**/admin', '/v1/x/admin'));
  t.ok(reach('/v1/p*', '/v1/pets'));
  t.ok(reach('/v1/pets/{petId}', '/v1/**'), 'a catch-all route reaches anything below it');
  t.ok(reach('**', '/anything/{id}'));
  t.notOk(reach('/v1/pets/*', '/v1/pets'), 'one segment short');
  t.notOk(reach('/v1/pets/*', '/v1/pets/{petId}/photos'));
  t.notOk(reach('/v1/unrelated/**', '/v1/pets/{petId}'));
  t.notOk(reach('/v1/c*', '/v1/pets'));
  t.notOk(reach('/v2/**', '/v1/**'));
});
