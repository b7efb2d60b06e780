// Value tokens: uuid, now, random numbers, faker.
import t from 'tap';
import { createFaker, createTemplateRuntime } from '../../dist/runtime/template/index.js';
import { CLOCK, render, runtime, syntaxError } from './fixtures/render.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

t.test('uuid is a fresh v4 UUID per render', async (t) => {
  const rt = runtime();
  const a = render('{{uuid}}', {}, { t: rt });
  const b = render('{{ uuid }}', {}, { t: rt });
  t.match(a, UUID_V4);
  t.match(b, UUID_V4);
  t.not(a, b);
});

t.test('now and offsets against the injected clock', async (t) => {
  t.equal(render('{{now}}'), '2024-05-01T12:00:00.000Z');
  t.equal(render('{{now+1h}}'), '2024-05-01T13:00:00.000Z');
  t.equal(render('{{now-1d}}'), '2024-04-30T12:00:00.000Z');
  t.equal(render('{{now-30m}}'), '2024-05-01T11:30:00.000Z');
  t.equal(render('{{now+45s}}'), '2024-05-01T12:00:45.000Z');
  t.equal(render('{{now + 2h}}'), '2024-05-01T14:00:00.000Z', 'spaces around the offset');
  let ms = CLOCK;
  const rt = createTemplateRuntime({ now: () => ms });
  const template = 'at {{now}}';
  t.equal(render(template, {}, { t: rt }), 'at 2024-05-01T12:00:00.000Z');
  ms += 1500;
  t.equal(render(template, {}, { t: rt }), 'at 2024-05-01T12:00:01.500Z', 'clock read at render time');
});

t.test('now defaults to the real clock', async (t) => {
  const before = Date.now();
  const rendered = Date.parse(render('{{now}}', {}, { t: createTemplateRuntime() }));
  t.ok(rendered >= before && rendered <= Date.now());
});

t.test('randInt stays within inclusive bounds', async (t) => {
  const rt = runtime();
  const seen = new Set();
  for (let i = 0; i < 2000; i++) {
    const text = render('{{randInt 1 6}}', {}, { t: rt });
    if (!/^-?\d+$/.test(text)) t.fail(`not an integer: ${text}`);
    seen.add(Number(text));
  }
  t.same([...seen].sort((a, b) => a - b), [1, 2, 3, 4, 5, 6], 'both bounds reached, nothing outside');
  const negative = new Set();
  for (let i = 0; i < 200; i++) negative.add(Number(render('{{randInt -2 -1}}', {}, { t: rt })));
  t.same([...negative].sort((a, b) => a - b), [-2, -1]);
  t.equal(render('{{randInt 7 7}}'), '7');
});

t.test('randFloat and rand.float stay within bounds', async (t) => {
  const rt = runtime();
  let fractional = false;
  for (let i = 0; i < 1000; i++) {
    const a = Number(render('{{randFloat 0.5 2.5}}', {}, { t: rt }));
    const b = Number(render('{{rand.float}}', {}, { t: rt }));
    if (!(a >= 0.5 && a <= 2.5)) t.fail(`randFloat out of range: ${a}`);
    if (!(b >= 0 && b <= 1)) t.fail(`rand.float out of range: ${b}`);
    fractional ||= !Number.isInteger(a);
  }
  t.ok(fractional, 'produces fractions');
  t.match(render('{{randFloat 0.0 1.0}}'), /^0\.\d+$|^[01]$/);
});

t.test('random token arguments are checked at build time', async (t) => {
  for (const [token, message] of [
    ['{{randInt}}', 'randInt needs two integer bounds, e.g. {{randInt 1 10}} at offset 0'],
    ['{{randInt 1}}', 'randInt needs two integer bounds, e.g. {{randInt 1 10}} at offset 0'],
    ['{{randInt 1.5 3}}', 'randInt needs two integer bounds, e.g. {{randInt 1 10}} at offset 0'],
    ['{{randInt a b}}', 'randInt needs two integer bounds, e.g. {{randInt 1 10}} at offset 0'],
    ['{{randInt 9 1}}', 'randInt lower bound 9 is above upper bound 1 at offset 0'],
    ['{{randFloat 1}}', 'randFloat needs two numeric bounds, e.g. {{randFloat 1 10}} at offset 0'],
    ['{{randFloat 2.5 0.5}}', 'randFloat lower bound 2.5 is above upper bound 0.5 at offset 0'],
    ['{{now+1y}}', 'invalid time offset in {{now+1y}}, expected e.g. now+1h (units s, m, h, d) at offset 0'],
    ['{{now-h}}', 'invalid time offset in {{now-h}}, expected e.g. now+1h (units s, m, h, d) at offset 0'],
  ]) {
    t.throws(() => render(token), syntaxError(message), token);
  }
});

t.test('faker shorthands render the matching Faker method', async (t) => {
  const shorthands = {
    name: (f) => f.person.fullName(),
    email: (f) => f.internet.email(),
    address: (f) => f.location.streetAddress(),
    phone: (f) => f.phone.number(),
    company: (f) => f.company.name(),
  };
  for (const [name, expected] of Object.entries(shorthands)) {
    const text = render(`{{faker.${name}}}`, {}, { t: runtime(42) });
    t.equal(text, expected(createFaker(42)), `faker.${name}`);
    t.ok(text.length > 0);
  }
  t.match(render('{{faker.email}}'), /^\S+@\S+\.\S+$/);
});

t.test('faker.<module>.<method> reaches any argument-free Faker method', async (t) => {
  t.equal(render('{{faker.animal.dog}}', {}, { t: runtime(7) }), createFaker(7).animal.dog());
  t.equal(render('{{faker.internet.emoji}}', {}, { t: runtime(7) }), createFaker(7).internet.emoji(), 'base locale data available');
  t.match(render('{{faker.date.past}}'), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'Dates render as ISO 8601');
  t.match(render('{{faker.datatype.boolean}}'), /^(true|false)$/);
  const recent = Date.parse(render('{{faker.date.recent}}'));
  t.ok(recent <= CLOCK && recent > CLOCK - 86_400_000, 'faker.date.* counts from the template clock, as {{now}} does');
});

t.test('unknown or unusable faker tokens fail the build', async (t) => {
  t.throws(() => render('x {{faker.nope}}'), syntaxError("unknown faker token 'faker.nope' at offset 2"));
  t.throws(() => render('{{faker.person.nope}}'), syntaxError("unknown faker method 'faker.person.nope' at offset 0"));
  t.throws(() => render('{{faker.nope.name}}'), syntaxError("unknown faker method 'faker.nope.name' at offset 0"));
  t.throws(() => render('{{faker.person.constructor}}'), syntaxError("unknown faker method 'faker.person.constructor' at offset 0"));
  t.throws(() => render('{{faker.Name}}'), syntaxError("unknown faker token 'faker.Name' at offset 0"), 'shorthands are lowercase');
  t.throws(
    () => render('{{faker.helpers.arrayElement}}'),
    syntaxError("faker method 'faker.helpers.arrayElement' cannot be called without arguments at offset 0"),
  );
});
