// Emitted source is stable and readable; a seed makes output repeatable.
import t from 'tap';
import { compileTemplate } from '../../dist/compiler/template/index.js';
import { createTemplateRuntime } from '../../dist/runtime/template/index.js';
import { render } from './fixtures/render.js';

t.test('emitted source is exact and deterministic', async (t) => {
  t.equal(compileTemplate('Hi {{request.path.id}}!', 'none'), '(t, c) => "Hi " + t.str(t.path(c, "id")) + "!"');
  t.equal(
    compileTemplate(JSON.stringify({ id: '{{uuid}}', at: '{{now-30m}}' }), 'json'),
    '(t, c) => "{\\"id\\":\\"" + t.json(t.uuid()) + "\\",\\"at\\":\\"" + t.json(t.now(-1800000)) + "\\"}"',
  );
  t.equal(
    compileTemplate("{{#if (eq request.query.kind 'cat')}}{{faker.name}}{{else}}{{randInt 1 6}}{{/if}}", 'none'),
    '(t, c) => (t.str(t.query(c, "kind")) === "cat" ? t.str(t.faker("person", "fullName")) : t.str(t.randInt(1, 6)))',
  );
  t.equal(
    compileTemplate('{{#if request.body.items.0}}{{request.header.X-A}}{{/if}}{{randFloat 0.0 1.5}}', 'none'),
    '(t, c) => (t.truthy(t.body(c, ["items","0"])) ? t.str(t.header(c, "x-a")) : "") + t.str(t.randFloat(0, 1.5))',
  );
  const big = JSON.stringify({
    a: '{{uuid}} {{now+1d}} {{randInt 1 100}} {{rand.float}} {{faker.email}} {{faker.color.human}}',
    b: "{{#if (ne request.query.x 'y')}}{{request.body.a.b}}{{else}}{{plugin:x:y(1)}}{{/if}}",
  });
  const first = compileTemplate(big, 'json');
  t.equal(compileTemplate(big, 'json'), first, 'same input, same source');
  t.doesNotThrow(() => new Function(`return ${first}`), 'plain JavaScript');
});

t.test('a seed makes every random token repeatable', async (t) => {
  const template = '{{uuid}}|{{randInt 1 1000000}}|{{randFloat 0 1}}|{{rand.float}}|{{faker.name}}|{{faker.email}}|{{faker.address}}|{{faker.phone}}|{{faker.company}}|{{faker.lorem.sentence}}';
  const run = (seed) => {
    const rt = createTemplateRuntime({ seed, now: () => 0 });
    return [render(template, {}, { t: rt }), render(template, {}, { t: rt })];
  };
  const a = run(123);
  t.same(run(123), a, 'same seed, same sequence');
  t.not(a[0], a[1], 'successive renders still differ');
  t.not(run(124)[0], a[0], 'another seed, other values');
  const unseeded = [createTemplateRuntime(), createTemplateRuntime()].map((rt) => render('{{uuid}}', {}, { t: rt }));
  t.not(unseeded[0], unseeded[1], 'unseeded runtimes differ');
});
