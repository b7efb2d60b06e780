// runtime/terminal/openapi/query.ts: query strings and cookies.
import t from 'tap';
import { decode, parseCookies, parseQuery } from '../../dist/runtime/chain/exchange/query.js';

const q = (raw) => Object.fromEntries(parseQuery(raw));

t.test('parseQuery: names to value lists in order', (t) => {
  t.same(q(''), {});
  t.same(q('a=1'), { a: ['1'] });
  t.same(q('a=1&b=2&a=3'), { a: ['1', '3'], b: ['2'] }, 'repeats collect');
  t.same(q('flag'), { flag: [''] }, 'no = is an empty value');
  t.same(q('a='), { a: [''] });
  t.same(q('=x'), { '': ['x'] });
  t.same(q('&&a=1&'), { a: ['1'] }, 'empty pairs skipped');
  t.same(q('a=1=2'), { a: ['1=2'] }, 'only the first = splits');
  t.same([...parseQuery('z=1&a=2').keys()], ['z', 'a'], 'insertion order');
  t.end();
});

t.test('parseQuery decodes names and values', (t) => {
  t.same(q('q=hello+world'), { q: ['hello world'] }, '+ is a space');
  t.same(q('q=a%2Bb'), { q: ['a+b'] }, '%2B is a plus');
  t.same(q('filter%5Bstatus%5D=on'), { 'filter[status]': ['on'] });
  t.same(q('name=J%C3%BCrgen'), { name: ['Jürgen'] }, 'UTF-8');
  t.same(q('bad=%E0%A4%A'), { bad: ['%E0%A4%A'] }, 'bad escapes kept verbatim');
  t.same(q('bad=100%+sure'), { bad: ['100% sure'] }, 'bad escapes kept, + still a space');
  t.same(q('tags=a,b|c d'), { tags: ['a,b|c d'] }, 'delimiters are left to the coercion');
  t.end();
});

t.test('decode', (t) => {
  t.equal(decode('plain'), 'plain');
  t.equal(decode('a+b'), 'a b');
  t.equal(decode('%41'), 'A');
  t.equal(decode('%'), '%');
  t.end();
});

t.test('parseCookies', (t) => {
  t.same(parseCookies(undefined), {});
  t.same(parseCookies(''), {});
  t.same(parseCookies('sid=abc; theme=dark'), { sid: 'abc', theme: 'dark' });
  t.same(parseCookies(' sid = abc ;x=1'), { sid: 'abc', x: '1' }, 'whitespace trimmed');
  t.same(parseCookies('token=a=b=c'), { token: 'a=b=c' }, 'values may hold =');
  t.same(parseCookies('msg=hello%20world'), { msg: 'hello world' }, 'values decoded');
  t.same({ ...parseCookies('novalue;=x; ok=1') }, { '': 'x', ok: '1' }, 'a pair without = skipped');
  t.same(parseCookies('a=1; a=2'), { a: '1' }, 'the first wins (the longest path, RFC 6265 5.4)');
  t.same(parseCookies('k=a+b%2B'), { k: 'a+b+' }, '+ is no space in a cookie');
  t.end();
});
