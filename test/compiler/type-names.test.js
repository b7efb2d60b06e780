// compiler/emit/type-names.ts: no type in types.ts shadows a global.
import t from 'tap';
import { typeTitles } from '../../dist/compiler/emit/type-names.js';
import { emitTypes } from '../../dist/compiler/emit/types.js';

t.test('a definition named like a global gets the prefix Model, numbered past names already taken', (t) => {
  const titles = typeTitles(['Error', 'ModelError', 'object', 'Pet', 'Record', 'error', 'Node']);
  t.same(Object.fromEntries(titles), {
    Error: 'ModelError2',
    ModelError: 'ModelError',
    object: 'ModelObject',
    Pet: 'Pet',
    Record: 'ModelRecord',
    error: 'ModelError3',
    Node: 'Node',
  });
  t.end();
});

t.test('types.ts declares and references the renamed type', async (t) => {
  const definitions = {
    Error: { type: 'object', required: ['code'], properties: { code: { type: 'integer' } } },
    Failure: { type: 'object', properties: { error: { $ref: '#/definitions/Error' } } },
  };
  const code = await emitTypes({ definitions });
  t.match(code, /^export interface ModelError \{$/m);
  t.match(code, /^error\?: ModelError$/m);
  t.notMatch(code, /^export (interface|type) Error\b/m);
});
