// The load generator's pieces: the response parser, flag values, scenario shapes, padded bodies.
import t from 'tap';
import { MAX_SAMPLED_BODY_BYTES, ResponseParser } from '../../dist/src/bench/response-parser.js';
import { parseDuration, parseSize, parseUntil } from '../../dist/src/bench/units.js';
import { activeVus } from '../../dist/src/bench/scenarios.js';
import { padJson, sizedBody } from '../../dist/src/bench/bodies.js';
import { TokenBucket } from '../../dist/src/bench/token-bucket.js';

const stream = [
  'HTTP/1.1 100 Continue\r\n\r\n',
  'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello',
  'HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nX-Trailer: 1\r\n\r\n',
  'HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n',
  'HTTP/1.0 503 Service Unavailable\r\ncontent-length: 2\r\nConnection: close\r\n\r\nno',
].join('');

t.test('the response parser finds every response however the bytes are split', async (t) => {
  const bytes = Buffer.from(stream);
  for (let split = 1; split < bytes.length; split++) {
    const seen = [];
    const parser = new ResponseParser((status, close) => seen.push(`${status}${close ? ' close' : ''}`));
    parser.execute(bytes.subarray(0, split));
    parser.execute(bytes.subarray(split));
    t.same(seen, ['200', '404', '204', '503 close'], `split at ${split}`);
  }
  const seen = [];
  const parser = new ResponseParser((status) => seen.push(status));
  for (const byte of bytes) parser.execute(Buffer.from([byte]));
  t.same(seen, [200, 404, 204, 503], 'one byte at a time');
});

t.test('HEAD responses, read-until-close bodies and garbage', async (t) => {
  const seen = [];
  const head = new ResponseParser((status) => seen.push(status), () => true);
  head.execute(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 100\r\n\r\n'));
  t.same(seen, [200, 201], 'no body after a HEAD response');
  const untilClose = new ResponseParser((status) => seen.push(status));
  untilClose.execute(Buffer.from('HTTP/1.1 202 Accepted\r\n\r\nsome body'));
  t.equal(untilClose.finish(), true);
  t.same(seen, [200, 201, 202]);
  t.throws(() => new ResponseParser(() => {}).execute(Buffer.from('SSH-2.0-OpenSSH\r\n\r\n')), { code: 'EPROTO' });
});

t.test('sampled answers: kept whole (content type, body over any framing) only when the sample wants them, big bodies dropped', async (t) => {
  const typed = stream.replace('Content-Length: 5\r\n', 'Content-Type: text/plain; charset=utf-8\r\nContent-Length: 5\r\n');
  const bytes = Buffer.from(typed);
  for (const split of [1, 40, 90, bytes.length - 3]) {
    const kept = [];
    const responses = [];
    // every answer but the 404 is wanted
    let head = 0;
    const parser = new ResponseParser((status) => responses.push(status), undefined, undefined, {
      want: () => head++ !== 1,
      answer: (status, contentType, body, bodiless) => kept.push([status, contentType, body?.toString(), bodiless]),
    });
    parser.execute(bytes.subarray(0, split));
    parser.execute(bytes.subarray(split));
    t.same(responses, [200, 404, 204, 503], `split at ${split}: every response`);
    t.same(
      kept,
      [
        [200, 'text/plain; charset=utf-8', 'hello', false],
        [204, '', '', true],
        [503, '', 'no', false],
      ],
      `split at ${split}: only the wanted answers kept, each before its response is counted`,
    );
  }
  const kept = [];
  const parser = new ResponseParser(() => {}, undefined, undefined, { want: () => true, answer: (status, type, body) => kept.push([status, body?.toString()]) });
  parser.execute(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n'));
  parser.execute(Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${MAX_SAMPLED_BODY_BYTES + 1}\r\n\r\n`));
  parser.execute(Buffer.alloc(MAX_SAMPLED_BODY_BYTES + 1, 0x20));
  parser.execute(Buffer.from('HTTP/1.1 200 OK\r\n\r\n'));
  for (let i = 0; i < 3; i++) parser.execute(Buffer.alloc(MAX_SAMPLED_BODY_BYTES / 2, 0x20));
  parser.finish();
  t.same(kept, [[200, 'abcde'], [200, undefined], [200, undefined]], 'chunked bodies joined; bodies over the cap (by Content-Length or read until close) not kept');
});

t.test('durations, sizes and --repeat-until', async (t) => {
  t.equal(parseDuration('60', '--duration'), 60_000);
  t.equal(parseDuration('30s', '--duration'), 30_000);
  t.equal(parseDuration('2m', '--duration'), 120_000);
  t.equal(parseDuration('1m30s', '--duration'), 90_000);
  t.equal(parseDuration('250ms', '--duration'), 250);
  t.throws(() => parseDuration('0', '--duration'), /--duration: must be longer than zero/);
  t.throws(() => parseDuration('2 weeks', '--duration'), /--duration: not a duration/);
  t.equal(parseSize('512B', '--body-size'), 512);
  t.equal(parseSize('1KB', '--body-size'), 1024);
  t.equal(parseSize('4kb', '--body-size'), 4096);
  t.equal(parseSize('1MB', '--body-size'), 1048576);
  t.equal(parseSize('100', '--body-size'), 100);
  t.throws(() => parseSize('1XB', '--body-size'), /--body-size: not a size/);
  t.equal(parseUntil('10m', 1000), 601_000);
  t.equal(parseUntil('2030-01-01T00:00:00Z', 0), Date.parse('2030-01-01T00:00:00Z'));
  t.throws(() => parseUntil('tomorrow', 0), /--repeat-until/);
});

t.test('scenario shapes', async (t) => {
  const at = (scenario, fraction) => activeVus(scenario, 100, fraction * 60_000, 60_000);
  t.same([0, 0.5, 0.99].map((f) => at('constant', f)), [100, 100, 100]);
  t.same([0, 1 / 3, 0.66, 0.7, 1].map((f) => at('ramp-up', f)), [1, 50, 99, 100, 100]);
  t.same([0.1, 0.45, 0.9].map((f) => at('spike', f)), [10, 100, 10]);
  t.same([0.1, 0.3, 0.6, 0.9].map((f) => at('stress', f)), [25, 50, 75, 100]);
  t.same([0, 0.025, 0.5, 0.99].map((f) => at('soak', f)), [1, 50, 100, 20]);
  t.equal(activeVus('spike', 3, 0, 1000), 1, 'at least one VU');
});

t.test('bodies of an exact size', async (t) => {
  const padded = padJson({ name: 'Zoë', n: 1 }, 40, '--total-size-bytes');
  t.equal(Buffer.byteLength(padded), 40);
  t.same(JSON.parse(padded), { name: 'Zoë', n: 1 });
  t.throws(() => padJson({ name: 'long' }, 5, '--total-size-bytes'), /5 bytes is smaller than the generated JSON body \(15 bytes\)/);
  for (const kind of ['json', 'xml', 'urlencoded', 'multipart']) t.equal(sizedBody(kind, 300, '--body-size').body.length, 300, kind);
  t.throws(() => sizedBody('xml', 10, '--body-size'), /needs at least/);
});

t.test('the token bucket holds a rate', async (t) => {
  let now = 0;
  const bucket = new TokenBucket(100, () => now);
  let taken = 0;
  for (let ms = 0; ms <= 1000; ms++) {
    now = ms;
    while (bucket.take()) taken++;
  }
  t.ok(taken >= 100 && taken <= 103, `${taken} tokens in one second at 100/s`);
});
