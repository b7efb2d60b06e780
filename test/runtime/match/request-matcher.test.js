// runtime/match request matchers (chaos's request_matcher): each field, AND across fields, OR
// within a list, IPv4 and IPv6 ranges, IPv4-mapped clients, and the errors naming the key.
import t from 'tap';
import { compileRequestMatcher } from '../../../dist/runtime/match/index.js';

const W = 'observability.chaos.fault_injection.request_matcher';
const request = (o = {}) => ({ client: '203.0.113.7', headers: {}, bodyBytes: 0, chunked: false, ...o });
const matcher = (spec) => compileRequestMatcher(spec, W);

t.test('no spec, or only empty fields: everything matches', async (t) => {
  for (const spec of [undefined, {}, { source_ips: [], headers: [], chunked_only: false }]) {
    const matches = matcher(spec);
    t.ok(matches(request()) && matches(request({ client: 'garbage', chunked: true, bodyBytes: 1e9 })), JSON.stringify(spec) ?? 'undefined');
  }
});

t.test('source_ips: addresses and CIDR ranges, IPv4 and IPv6, any one of them', async (t) => {
  const matches = matcher({ source_ips: ['10.0.0.0/8', '192.168.1.10', '2001:db8::/32', '::1'] });
  t.ok(matches(request({ client: '10.200.3.4' })), 'inside 10.0.0.0/8');
  t.notOk(matches(request({ client: '11.0.0.1' })));
  t.ok(matches(request({ client: '192.168.1.10' })), 'a bare address');
  t.notOk(matches(request({ client: '192.168.1.11' })));
  t.ok(matches(request({ client: '2001:db8:abcd::42' })), 'inside 2001:db8::/32');
  t.ok(matches(request({ client: '2001:0DB8:0000:0000:0000:0000:0000:0001' })), 'IPv6 written out in full, upper case');
  t.notOk(matches(request({ client: '2001:db9::1' })));
  t.ok(matches(request({ client: '::1' })));
  t.notOk(matches(request({ client: 'not-an-address' })), 'an unreadable client matches no rule');
  t.ok(matcher({ source_ips: ['10.1.2.3/8'] })(request({ client: '10.9.9.9' })), 'host bits in a range are ignored');
  t.ok(matcher({ source_ips: ['0.0.0.0/0'] })(request()), '/0: every IPv4 client');
});

t.test('an IPv4-mapped IPv6 client matches IPv4 rules, and the reverse', async (t) => {
  const v4 = matcher({ source_ips: ['127.0.0.0/8'] });
  t.ok(v4(request({ client: '::ffff:127.0.0.1' })));
  t.ok(v4(request({ client: '::ffff:7f00:1' })), 'in hexadecimal form');
  t.notOk(v4(request({ client: '::ffff:10.0.0.1' })));
  t.ok(matcher({ source_ips: ['::ffff:192.0.2.1'] })(request({ client: '192.0.2.1' })), 'a mapped rule, a plain IPv4 client');
});

t.test('headers: names case-insensitive, value exact, omitted value = presence, any one of them', async (t) => {
  const matches = matcher({ headers: [{ name: 'X-Chaos' }, { name: 'X-Tenant', value: 'acme' }] });
  t.ok(matches(request({ headers: { 'x-chaos': '' } })), 'present, even empty');
  t.ok(matches(request({ headers: { 'x-tenant': 'acme' } })));
  t.notOk(matches(request({ headers: { 'x-tenant': 'Acme' } })), 'values compare exactly');
  t.notOk(matches(request({ headers: { 'x-tenant': 'acme2' } })), 'whole values');
  t.notOk(matches(request({ headers: { other: 'acme' } })));
});

t.test('body size bounds are inclusive; chunked_only needs chunked transfer', async (t) => {
  const sized = matcher({ min_body_size_bytes: 10, max_body_size_bytes: 20 });
  t.same([9, 10, 20, 21].map((bodyBytes) => sized(request({ bodyBytes }))), [false, true, true, false]);
  t.ok(matcher({ min_body_size_bytes: 0 })(request()), 'min 0: every body');
  t.ok(matcher({ max_body_size_bytes: 0 })(request()), 'max 0: empty bodies only …');
  t.notOk(matcher({ max_body_size_bytes: 0 })(request({ bodyBytes: 1 })), '… and no others');
  const chunked = matcher({ chunked_only: true });
  t.ok(chunked(request({ chunked: true })));
  t.notOk(chunked(request()));
});

t.test('fields combine with AND', async (t) => {
  const matches = matcher({ source_ips: ['10.0.0.0/8'], headers: [{ name: 'x-chaos' }], min_body_size_bytes: 1, chunked_only: true });
  const all = request({ client: '10.0.0.1', headers: { 'x-chaos': '1' }, bodyBytes: 5, chunked: true });
  t.ok(matches(all));
  t.notOk(matches({ ...all, client: '11.0.0.1' }));
  t.notOk(matches({ ...all, headers: {} }));
  t.notOk(matches({ ...all, bodyBytes: 0 }));
  t.notOk(matches({ ...all, chunked: false }));
});

t.test('malformed settings throw MOCK_ERR_CONFIG_INVALID naming the key', async (t) => {
  const invalid = (spec, message) => t.throws(() => matcher(spec), { name: 'MockError', code: 'MOCK_ERR_CONFIG_INVALID', message }, message);
  invalid({ source_ips: ['10.0.0.1', '::1', '10.0.0.0/33'] }, `${W}.source_ips[2]: "10.0.0.0/33" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1/128)`);
  invalid({ source_ips: ['not-an-ip'] }, `${W}.source_ips[0]: "not-an-ip" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1/128)`);
  invalid({ source_ips: ['2001:db8::/129'] }, `${W}.source_ips[0]: "2001:db8::/129" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1/128)`);
  invalid({ source_ips: ['10.0.0.0/'] }, `${W}.source_ips[0]: "10.0.0.0/" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1/128)`);
  invalid({ source_ips: ['10.0.0.0/8/8'] }, `${W}.source_ips[0]: "10.0.0.0/8/8" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1/128)`);
  invalid({ source_ips: ['10.0.0.0/-1'] }, `${W}.source_ips[0]: "10.0.0.0/-1" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1/128)`);
  invalid({ source_ips: ['10.0.0.256'] }, `${W}.source_ips[0]: "10.0.0.256" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1/128)`);
  invalid({ source_ips: [42] }, `${W}.source_ips[0]: 42 is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1/128)`);
  invalid({ min_body_size_bytes: -1 }, `${W}.min_body_size_bytes: must be a whole number of bytes, 0 or more (got -1)`);
  invalid({ max_body_size_bytes: 1.5 }, `${W}.max_body_size_bytes: must be a whole number of bytes, 0 or more (got 1.5)`);
  invalid({ min_body_size_bytes: 2048, max_body_size_bytes: 1024 }, `${W}.min_body_size_bytes: 2048 is more than max_body_size_bytes (1024), so nothing could match`);
  invalid({ headers: [{ name: 'x-ok' }, { value: 'v' }] }, `${W}.headers[1].name: a header rule needs a name`);
  invalid({ headers: [{ name: 'x-n', value: [5] }] }, `${W}.headers[0].value: must be {equals: <value>}, {matches: "<regex>"}, {present: true|false}, or a plain value (got [5]); or leave it out to require only the header's presence`);
});
