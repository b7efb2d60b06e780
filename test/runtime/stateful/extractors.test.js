// runtime/chain/stateful compileExtractor: where a request names its resource.
import t from 'tap';
import { compileExtractor } from '../../../dist/runtime/chain/stateful/index.js';

const source = ({ params = {}, headers = {}, body } = {}) => {
  let reads = 0;
  return {
    params,
    headers,
    body: () => {
      reads++;
      return body;
    },
    get bodyReads() {
      return reads;
    },
  };
};

t.test('path_param reads the matched pattern’s parameter', async (t) => {
  const extract = compileExtractor({ type: 'path_param', param: 'order_id' });
  t.equal(extract(source({ params: { order_id: 'ord_1' } })), 'ord_1');
  t.equal(extract(source({ params: { other: 'x' } })), undefined, 'absent');
  t.equal(extract(source({ params: { order_id: '' } })), undefined, 'empty is no id');
  t.equal(extract(source({ params: Object.create({ order_id: 'inherited' }) })), undefined, 'own parameters only');
});

t.test('header reads a request header whatever the case it is named in', async (t) => {
  const extract = compileExtractor({ type: 'header', name: 'X-Session-Id' });
  t.equal(extract(source({ headers: { 'x-session-id': 's-42' } })), 's-42');
  t.equal(extract(source({ headers: {} })), undefined);
});

t.test('json_path takes the first value the path selects in the JSON body: text or a number', async (t) => {
  const extract = compileExtractor({ type: 'json_path', path: '$.order.id' });
  t.equal(extract(source({ body: { order: { id: 'ord_9' } } })), 'ord_9');
  t.equal(extract(source({ body: { order: { id: 17 } } })), '17', 'numbers become text');
  for (const id of [null, true, { a: 1 }, [1], '', Number.NaN]) t.equal(extract(source({ body: { order: { id } } })), undefined, `${JSON.stringify(id)} is no id`);
  t.equal(extract(source({ body: undefined })), undefined, 'no body');
  t.equal(compileExtractor({ type: 'json_path', path: '$.items[*].sku' })(source({ body: { items: [{ sku: 'A' }, { sku: 'B' }] } })), 'A', 'the first of several');
  t.throws(() => compileExtractor({ type: 'json_path', path: 'order.id' }), { name: 'PatternError' }, 'a malformed path is refused when compiled');
});

t.test('composite answers the first extractor that yields an id, reading the body only when it gets there', async (t) => {
  const extract = compileExtractor({
    type: 'composite',
    extractors: [
      { type: 'path_param', param: 'order_id' },
      { type: 'header', name: 'x-order' },
      { type: 'json_path', path: '$.order_id' },
    ],
  });
  const fromPath = source({ params: { order_id: 'p' }, headers: { 'x-order': 'h' }, body: { order_id: 'b' } });
  t.equal(extract(fromPath), 'p');
  t.equal(fromPath.bodyReads, 0, 'the body is not read once an id is found');
  t.equal(extract(source({ headers: { 'x-order': 'h' }, body: { order_id: 'b' } })), 'h');
  t.equal(extract(source({ body: { order_id: 'b' } })), 'b');
  t.equal(extract(source({})), undefined, 'none yields: no id');
});
