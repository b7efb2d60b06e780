// runtime/terminal/openapi/negotiate.ts: Accept against the documented response media types.
import t from 'tap';
import { ContentNegotiation } from '../../dist/runtime/terminal/openapi/negotiate.js';

const types = ['application/json', 'application/xml', 'text/plain'];

t.test('no preference: the first documented type', (t) => {
  const n = new ContentNegotiation();
  t.equal(n.choose(types, undefined), 0);
  t.equal(n.choose(types, ''), 0);
  t.equal(n.choose(types, '*/*'), 0);
  t.equal(n.choose([], undefined), -1, 'nothing documented');
  t.equal(n.choose([], 'application/json'), -1);
  t.end();
});

t.test('exact types, case-insensitive', (t) => {
  const n = new ContentNegotiation();
  t.equal(n.choose(types, 'application/xml'), 1);
  t.equal(n.choose(types, 'text/plain'), 2);
  t.equal(n.choose(types, 'APPLICATION/XML'), 1);
  t.equal(n.choose(['Application/Json'], 'application/json'), 0, 'documented types compared lower-case');
  t.end();
});

t.test('q-values', (t) => {
  const n = new ContentNegotiation();
  t.equal(n.choose(types, 'application/json;q=0.5, application/xml'), 1, 'q defaults to 1');
  t.equal(n.choose(types, 'application/json;q=0.5, application/xml;q=0.9'), 1);
  t.equal(n.choose(types, 'application/xml;q=0.2, text/plain;q=0.8, application/json;q=0.4'), 2);
  t.equal(n.choose(types, 'application/json;q=0'), -1, 'q=0 refuses');
  t.equal(n.choose(types, 'text/plain;q=0, */*;q=0.1'), 0, 'refused type skipped, wildcard takes the first other');
  t.equal(n.choose(types, 'application/xml, application/json'), 1, 'equal q: the client order decides');
  t.end();
});

t.test('wildcards', (t) => {
  const n = new ContentNegotiation();
  t.equal(n.choose(types, 'text/*'), 2);
  t.equal(n.choose(types, 'application/*'), 0);
  t.equal(n.choose(types, 'application/*;q=0.5, text/plain;q=0.6'), 2);
  t.equal(n.choose(types, 'text/html, */*;q=0.1'), 0, 'unknown type plus wildcard');
  t.equal(n.choose(types, 'text/html, application/xml;q=0.9, */*;q=0.8'), 1, 'browser-style Accept');
  t.equal(n.choose(types, '*/*;q=0'), -1);
  t.end();
});

t.test('nothing acceptable: -1 (406)', (t) => {
  const n = new ContentNegotiation();
  t.equal(n.choose(types, 'image/png'), -1);
  t.equal(n.choose(['application/json'], 'application/problem+json'), -1);
  t.equal(n.choose(['application/json'], 'text/*'), -1);
  t.end();
});

t.test('documented types with parameters', (t) => {
  const n = new ContentNegotiation();
  t.equal(n.choose(['application/json; charset=utf-8', 'text/plain'], 'application/json'), 0, 'parameters of documented types are ignored');
  t.equal(n.choose(['text/plain', 'application/json; charset=utf-8'], 'application/*'), 1);
  // negotiate.ts:19-20 strips parameters from the documented types but not from Accept; a media range
  // with parameters then never matches, even the documented type itself.
  t.equal(n.choose(['application/xml; charset=utf-8'], 'application/xml; charset=utf-8'), 0, 'Accept equal to the documented type');
  t.equal(n.choose(['application/json'], 'application/json; charset=utf-8'), 0, 'Accept with a charset parameter');
  t.end();
});

t.test('results are cached per types and Accept, and bounded', (t) => {
  const n = new ContentNegotiation();
  t.equal(n.choose(types, 'text/plain'), 2);
  t.equal(n.choose(types, 'text/plain'), 2, 'cache hit');
  t.equal(n.choose(['text/plain', 'application/json'], 'text/plain'), 0, 'keyed by the offered list too');
  for (let i = 0; i < 600; i++) n.choose(types, `application/x-${i}`);
  t.equal(n.choose(types, 'application/xml'), 1, 'still correct after the cache was cleared');
  t.end();
});
