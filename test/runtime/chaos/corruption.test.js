// runtime/chain/chaos payload corruption: exactly the damage the detail reports, on a copy.
import t from 'tap';
import { corrupt, seededRandom } from '../../../dist/runtime/chain/chaos/index.js';

const bytesOf = (n, seed = 1) => {
  const random = seededRandom(seed);
  return Uint8Array.from({ length: n }, () => Math.floor(random.next() * 256));
};
const popcount = (x) => x.toString(2).replaceAll('0', '').length;
const differingBits = (a, b) => a.reduce((sum, x, i) => sum + popcount(x ^ b[i]), 0);
const differingBytes = (a, b) => a.reduce((sum, x, i) => sum + (x === b[i] ? 0 : 1), 0);

t.test('bit_flip: exactly the number of bits it reports, 1 to 8', async (t) => {
  const random = seededRandom(3);
  const seen = new Set();
  for (const size of [1, 2, 3, 64, 4096]) {
    for (let i = 0; i < 200; i++) {
      const body = bytesOf(size, i);
      const before = body.slice();
      const { body: out, detail } = corrupt(body, 'bit_flip', random);
      const n = Number(/^bit_flip;bits=(\d+)$/.exec(detail)[1]);
      seen.add(n);
      if (differingBits(before, out) !== n || out.length !== size || differingBits(before, body) !== 0) {
        t.fail(`size ${size}: ${detail} but ${differingBits(before, out)} bits differ`);
        return;
      }
    }
  }
  t.same([...seen].sort(), [1, 2, 3, 4, 5, 6, 7, 8], 'every count from 1 to 8 occurs');
  t.pass('the differing bits always match the detail, and the input never changes');
});

t.test('random_bytes: exactly the number of bytes it reports, each changed', async (t) => {
  const random = seededRandom(4);
  const seen = new Set();
  for (const size of [1, 5, 16, 17, 1000]) {
    for (let i = 0; i < 200; i++) {
      const body = bytesOf(size, i);
      const before = body.slice();
      const { body: out, detail } = corrupt(body, 'random_bytes', random);
      const k = Number(/^random_bytes;bytes=(\d+)$/.exec(detail)[1]);
      seen.add(k);
      if (k < 1 || k > Math.min(16, size) || differingBytes(before, out) !== k || differingBytes(before, body) !== 0) {
        t.fail(`size ${size}: ${detail} but ${differingBytes(before, out)} bytes differ`);
        return;
      }
    }
  }
  t.equal(seen.size, 16, 'every count from 1 to 16 occurs');
});

t.test('truncate: a prefix of the length it reports, always shorter', async (t) => {
  const random = seededRandom(5);
  for (const size of [1, 2, 100]) {
    for (let i = 0; i < 100; i++) {
      const body = bytesOf(size, i);
      const { body: out, detail } = corrupt(body, 'truncate', random);
      const m = Number(/^truncate;kept=(\d+)$/.exec(detail)[1]);
      if (out.length !== m || m >= size || !out.every((x, j) => x === body[j])) {
        t.fail(`size ${size}: ${detail}, got ${out.length} bytes`);
        return;
      }
    }
  }
  const buffer = Buffer.from('hello world');
  const { body: cut } = corrupt(buffer, 'truncate', seededRandom(1));
  cut.fill(0);
  t.equal(buffer.toString(), 'hello world', 'a Buffer input shares no memory with the result');
});

t.test('an empty body comes back as is; a seed repeats the damage', async (t) => {
  const empty = new Uint8Array(0);
  for (const type of ['bit_flip', 'random_bytes', 'truncate']) t.same(corrupt(empty, type, seededRandom(1)), { body: empty, detail: `${type};empty` });
  const body = bytesOf(500);
  t.same(corrupt(body, 'random_bytes', seededRandom(9)), corrupt(body, 'random_bytes', seededRandom(9)));
  const stuck = { next: () => 0.9999999 };
  t.equal(corrupt(Uint8Array.of(0), 'bit_flip', stuck).detail, 'bit_flip;bits=8', 'all 8 bits of one byte, without redrawing');
  t.equal(corrupt(Uint8Array.of(0), 'bit_flip', stuck).body[0], 255);
});
