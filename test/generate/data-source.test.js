// x-mock-data-source: a generated field whose schema names a data source plugin asks its action
// (arguments as JSON array text) when the runtime has plugins, and is generated as before where it
// has none (the build's own samples, mock data).
import t from 'tap';
import { createGeneratorEmitter } from '../../dist/compiler/generate/index.js';
import { createGenRuntime } from '../../dist/common/generate/index.js';

const schema = {
  type: 'object',
  required: ['serial', 'name'],
  properties: {
    serial: { type: 'integer', minimum: 1, maximum: 9, 'x-mock-data-source': { plugin: 'catalog', action: 'next_id', args: ['a', 2] } },
    name: { type: 'string', maxLength: 5 },
  },
};

function generator(plugins) {
  const emitter = createGeneratorEmitter({});
  const expression = emitter.expression(schema, 'response');
  return new Function('g', `${emitter.declarations()}\nreturn () => ${expression};`)(createGenRuntime({ seed: 1, plugins }));
}

t.test('with plugins, the field is the action answer', async (t) => {
  const calls = [];
  const value = generator({ call: (plugin, action, input) => (calls.push([plugin, action, input]), 42) })();
  t.equal(value.serial, 42);
  t.equal(typeof value.name, 'string');
  t.same(calls, [['catalog', 'next_id', '["a",2]']]);
});

t.test('without plugins, the field is generated from the rest of its schema', async (t) => {
  const value = generator(undefined)();
  t.ok(Number.isInteger(value.serial) && value.serial >= 1 && value.serial <= 9, `${value.serial} within its bounds`);
});
