// runtime/terminal/openapi/prefer.ts: `Prefer: code=…, example=…, dynamic=…` and the __code/__example/__dynamic fallbacks; `error-body=` of refusals.
import t from 'tap';
import { preferredErrorBody, readPreference } from '../../dist/runtime/terminal/openapi/prefer.js';
import { parseQuery } from '../../dist/runtime/chain/exchange/query.js';

const none = new Map();
const pref = (header, query = '') => ({ ...readPreference(header, query ? parseQuery(query) : none) });

t.test('no header, no query: the shared empty preference', (t) => {
  const a = readPreference(undefined, none);
  t.same(a, {});
  t.equal(readPreference('', new Map([['other', ['1']]])), a, 'same frozen object');
  t.ok(Object.isFrozen(a));
  t.end();
});

t.test('header members', (t) => {
  t.same(pref('code=404'), { code: '404' });
  t.same(pref('code=404, example=cat, dynamic=true'), { code: '404', example: 'cat', dynamic: true });
  t.same(pref('code=404; example=cat'), { code: '404', example: 'cat' }, '; separates too');
  t.same(pref('CODE = 201 ,Example= "big dog" '), { code: '201', example: 'big dog' }, 'case-insensitive keys, spaces and quotes');
  t.same(pref('dynamic=false'), { dynamic: false });
  t.same(pref('dynamic=yes'), { dynamic: false }, 'only "true" turns it on');
  t.same(pref('respond-async, wait=5, return=minimal'), {}, 'other preferences ignored');
  t.same(pref('code=400, code=500'), { code: '500' }, 'last repeat wins');
  t.same(pref('example=a=b'), { example: 'a=b' }, 'values may hold =');
  t.end();
});

t.test('query fallbacks', (t) => {
  t.same(pref(undefined, '__code=500'), { code: '500' });
  t.same(pref(undefined, '__example=dog&__dynamic=true'), { example: 'dog', dynamic: true });
  t.same(pref(undefined, '__dynamic'), { dynamic: true }, 'a bare __dynamic is true');
  t.same(pref(undefined, '__dynamic=false'), { dynamic: false });
  t.same(pref(undefined, '__code=201&__code=202'), { code: '201' }, 'first occurrence');
  t.same(pref(undefined, '__example=big+dog'), { example: 'big dog' });
  t.end();
});

t.test('the header wins over the query, member by member', (t) => {
  t.same(pref('code=404', '__code=500&__example=cat'), { code: '404', example: 'cat' });
  t.same(pref('dynamic=false', '__dynamic=true'), { dynamic: false });
  t.same(pref('wait=1', '__code=202'), { code: '202' }, 'an unrelated header still lets the query through');
  t.end();
});

t.test('error-body: how a refused request wants its body', (t) => {
  t.equal(preferredErrorBody(undefined), undefined);
  t.equal(preferredErrorBody('error-body=problem'), 'problem');
  t.equal(preferredErrorBody('respond-async, Error-Body = "Documented"'), 'documented', 'among others, case-insensitive, quoted');
  t.equal(preferredErrorBody('code=400; error-body=problem'), 'problem');
  t.equal(preferredErrorBody('error-body=html'), undefined, 'only problem or documented');
  t.equal(preferredErrorBody('code=404'), undefined);
  t.end();
});
