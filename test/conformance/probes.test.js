// src/conformance: which probes an operation gets, their labels and expected ranges, the mutation
// cap, and the small pieces (verdicts, violation entries, report paths, escaping, corruption).
import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from '../helpers/cli.js';
import { loadIr } from '../../dist/src/requests/index.js';
import { planOperation, URI_TOO_LONG_QUERY_BYTES } from '../../dist/src/conformance/plan.js';
import { MUTATION_CAP, MUTATION_KINDS } from '../../dist/src/conformance/body-mutations.js';
import { Validators } from '../../dist/src/conformance/validators.js';
import { SchemaView } from '../../dist/src/conformance/schema-view.js';
import { RequestBuilder } from '../../dist/src/conformance/request-model.js';
import { verdictOf } from '../../dist/src/conformance/probe.js';
import { ViolationBuffer, violationsOf } from '../../dist/src/conformance/violations.js';
import { reportPaths } from '../../dist/src/conformance/report.js';
import { escapeHtml } from '../../dist/src/conformance/html.js';
import { corrupt } from '../../dist/src/conformance/response-check.js';

// 30 properties, each with one constraint, 8 required: more candidates than the cap allows
const wide = {};
for (let i = 0; i < 30; i++) {
  const name = `p${String(i).padStart(2, '0')}`;
  wide[name] = [
    { type: 'string', minLength: 2 },
    { type: 'string', maxLength: 5 },
    { type: 'string', pattern: '^[a-z]+$' },
    { type: 'string', enum: ['a', 'b'] },
    { type: 'integer', minimum: 3 },
    { type: 'integer', maximum: 9 },
    { type: 'number' },
    { type: 'boolean' },
  ][i % 8];
}

const spec = {
  openapi: '3.0.3',
  info: { title: 'probes', version: '1' },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
    schemas: {
      Wide: { type: 'object', additionalProperties: false, required: ['p00', 'p01', 'p02', 'p03', 'p04', 'p05', 'p06', 'p07'], properties: wide },
      Cat: { type: 'object', properties: { name: { type: 'string' } } },
      Dog: { type: 'object', properties: { name: { type: 'string' } } },
    },
  },
  paths: {
    '/wide': { post: { operationId: 'wide', requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Wide' } } } }, responses: { 201: { description: 'ok' } } } },
    '/search': {
      get: {
        operationId: 'search',
        security: [{ bearer: [] }, { key: [] }],
        parameters: [
          { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string', enum: ['t1'] } },
        ],
        responses: { 200: { description: 'ok' } },
      },
    },
    '/maybe': { get: { operationId: 'maybe', security: [{}, { bearer: [] }], responses: { 200: { description: 'ok' } } } },
    '/things/{id}': {
      get: { operationId: 'thing', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'ok' } } },
      put: {
        operationId: 'putThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { content: { 'application/xml': { schema: { $ref: '#/components/schemas/Cat' } }, 'application/json': { schema: { $ref: '#/components/schemas/Cat' } } } },
        responses: { 200: { description: 'ok' } },
      },
    },
    '/pets': {
      post: {
        operationId: 'ambiguous',
        requestBody: { required: true, content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] } } } },
        responses: { 201: { description: 'ok' } },
      },
    },
  },
};

const dir = tmpdir();
writeFileSync(path.join(dir, 'probes.json'), JSON.stringify(spec));
const ir = await loadIr([{ source: 'probes.json' }], dir);
const validators = new Validators(ir);
const view = new SchemaView(ir.definitions);
const ctx = { builder: new RequestBuilder(ir.definitions, validators, 5), view, validators, headers: { authorization: 'Bearer real', 'x-api-key': 'real' } };
const op = (id) => ir.operations.find((o) => o.operationId === id);
const plan = (id, extra = {}) => planOperation(op(id), { ...ctx, ...extra });
const labels = (p) => p.probes.map((x) => x.label);

t.test('request-body mutations: capped at 12, one of each kind first, every one a true negative', (t) => {
  const { probes } = plan('wide');
  const mutations = probes.filter((p) => p.category === 'request-body' && !/content-type-mismatch|embedded-content/.test(p.label));
  t.equal(mutations.length, MUTATION_CAP);
  t.same(
    mutations.map((p) => p.label.split(':')[1]),
    MUTATION_KINDS,
    'with 30 constrained properties, each of the 12 kinds once, in the SPEC order',
  );
  const check = validators.body(op('wide'), 0);
  for (const p of mutations) {
    t.equal(p.expect, 'negative', `${p.label} expects 4xx`);
    if (p.label === 'request-body:empty') t.equal(p.request.body, '');
    else t.not(check(JSON.parse(p.request.body)), undefined, `${p.label}: the description rejects the mutated body`);
    const scope = p.label.split(':')[2];
    if (scope && scope !== 'mock_unexpected_property') t.ok(Number(scope.slice(1)) < 20, `${p.label} is among the first 20 properties`);
  }
  const removed = mutations.find((p) => p.label.startsWith('request-body:required-removed:'));
  t.ok(['p00', 'p01', 'p02', 'p03', 'p04'].includes(removed.label.split(':')[2]), 'required-removed picks among the first 5 required');
  t.end();
});

t.test('content types: a mismatch per format the operation does not accept (415 as 4xx), embedded content tolerated', (t) => {
  const wideLabels = labels(plan('wide'));
  for (const f of ['xml', 'yaml', 'multipart', 'urlencoded']) {
    t.ok(wideLabels.includes(`request-body:content-type-mismatch:${f}`), f);
    t.ok(wideLabels.includes(`request-body:embedded-content:${f}`), f);
  }
  const put = plan('putThing');
  t.notOk(labels(put).includes('request-body:content-type-mismatch:xml'), 'no xml mismatch where XML is accepted');
  t.ok(labels(put).includes('request-body:content-type-mismatch:yaml'));
  for (const p of put.probes.filter((x) => x.label.includes('embedded-content'))) t.equal(p.expect, 'tolerant');
  const embedded = put.probes.find((x) => x.label === 'request-body:embedded-content:xml');
  t.match(JSON.parse(embedded.request.body).name, /^<\?xml/, 'the XML document travels in the string property');
  t.equal(embedded.request.headers['content-type'], 'application/json');
  t.notOk(labels(put).includes('request-body:empty'), 'no empty-body probe when the body is optional');
  t.notOk(labels(plan('thing')).some((l) => l.startsWith('request-body')), 'no body, no request-body probes');
  t.end();
});

t.test('parameter probes', (t) => {
  const search = plan('search');
  const missingQuery = search.probes.find((p) => p.label === 'parameters:missing-query:q');
  t.notMatch(missingQuery.request.path, /[?&]q=/);
  const missingHeader = search.probes.find((p) => p.label === 'parameters:missing-header:x-tenant');
  t.equal(missingHeader.request.headers['x-tenant'], undefined);
  const positive = search.probes.find((p) => p.label === 'positive');
  t.equal(positive.request.headers['x-tenant'], 't1');
  t.equal(positive.expect, 'positive');

  const thing = plan('thing');
  const bad = thing.probes.find((p) => p.label === 'parameters:bad-path-param:id');
  t.equal(bad.request.path, '/things/not-a-number');
  t.notOk(labels(plan('putThing')).some((l) => l.startsWith('parameters:bad-path-param')), 'a free-form string path parameter cannot be made invalid');
  t.notOk(labels(thing).some((l) => l.startsWith('parameters:missing-')), 'nothing required to leave out');

  for (const id of ['search', 'thing', 'wide']) {
    const long = plan(id).probes.find((p) => p.label === 'parameters:uri-too-long');
    t.equal(long.request.path.split('?')[1].length, URI_TOO_LONG_QUERY_BYTES, `${id}: a 9 KiB query string`);
    t.equal(URI_TOO_LONG_QUERY_BYTES, 9216);
  }
  t.end();
});

t.test('security probes only where security is declared; credentials replaced', (t) => {
  t.notOk(labels(plan('thing')).some((l) => l.startsWith('security')));
  t.notOk(labels(plan('maybe')).some((l) => l.startsWith('security')), 'credentials optional ({}): none is a valid request');
  const search = plan('search', { extraHeaders: [['X-Run', 'r1']] });
  t.same(labels(search).filter((l) => l.startsWith('security')), ['security:bad-bearer', 'security:bad-apikey:X-Api-Key', 'security:no-auth']);
  const by = (l) => search.probes.find((p) => p.label === l).request.headers;
  t.equal(by('security:bad-bearer').authorization, 'Bearer mock-invalid-token');
  t.equal(by('security:bad-bearer')['x-api-key'], undefined, 'the real API key is not sent along');
  t.equal(by('security:bad-apikey:X-Api-Key')['x-api-key'], 'mock-invalid-api-key');
  t.equal(by('security:bad-apikey:X-Api-Key').authorization, undefined);
  t.equal(by('security:no-auth').authorization, undefined);
  t.equal(by('security:no-auth')['x-api-key'], undefined);
  t.equal(by('positive').authorization, 'Bearer real', '--headers reach the other probes');
  for (const p of search.probes) t.equal(p.request.headers['x-run'], 'r1', `${p.label} carries --conformance-header`);
  t.end();
});

t.test('owasp probes go into a free string field; xxe into an XML body where one is accepted', (t) => {
  const search = plan('search');
  const owasp = search.probes.filter((p) => p.category === 'owasp');
  t.same(owasp.map((p) => p.label), ['sqli', 'xss', 'command-injection', 'path-traversal', 'ssti', 'ldap-injection', 'xxe'].map((k) => `owasp:${k}:query.q`));
  const sqli = new URLSearchParams(owasp[0].request.path.split('?')[1]).get('q');
  t.equal(sqli, "' OR '1'='1' -- ");
  for (const p of owasp) t.equal(p.expect, 'negative');
  const put = plan('putThing');
  const xxe = put.probes.find((p) => p.label.startsWith('owasp:xxe'));
  t.equal(xxe.label, 'owasp:xxe:body');
  t.equal(xxe.request.headers['content-type'], 'application/xml');
  t.match(xxe.request.body, /<!ENTITY xxe SYSTEM/);
  t.ok(put.probes.some((p) => p.label === 'owasp:sqli:body.name'));
  t.notOk(labels(plan('thing')).some((l) => l.startsWith('owasp')), 'no string anywhere: no owasp probes');
  t.end();
});

t.test('a valid request the generator cannot produce is skipped with the reason, not sent', (t) => {
  const ambiguous = plan('ambiguous');
  t.notOk(labels(ambiguous).includes('positive'));
  t.equal(ambiguous.skipped.length, 1);
  t.match(ambiguous.skipped[0], { label: 'positive', operation: 'POST /pets', reason: /could not generate a valid request: request body: .*oneOf/ });
  t.ok(ambiguous.probes.length > 0, 'the negative probes still go out');
  t.end();
});

t.test('verdicts', (t) => {
  const cases = [
    ['positive', 200, 'pass'],
    ['positive', 302, 'pass'],
    ['positive', 404, 'valid_request_rejected'],
    ['positive', 503, 'server_error'],
    ['negative', 400, 'pass'],
    ['negative', 415, 'pass'],
    ['negative', 201, 'missed_negative'],
    ['negative', 303, 'unexpected_status'],
    ['negative', 500, 'server_error'],
    ['tolerant', 200, 'pass'],
    ['tolerant', 422, 'pass'],
    ['tolerant', 502, 'server_error'],
  ];
  for (const [expect, status, verdict] of cases) t.equal(verdictOf(expect, status), verdict, `${expect} ${status}`);
  t.end();
});

t.test('server-side violation entries: merged when unique, one each otherwise', (t) => {
  const body = JSON.stringify({ errors: [{ location: 'query', message: "query parameter 'q' is required" }, { location: 'body', message: 'body must be object' }] });
  const merged = new ViolationBuffer(true);
  const kept = new ViolationBuffer(false);
  for (const b of [merged, kept]) {
    t.equal(b.record('GET', '/s', 'p1', 400, 'application/problem+json', body), 2);
    b.record('GET', '/s', 'p2', 400, 'application/problem+json', body);
    b.record('GET', '/s', 'p3', 201, 'application/json', body);
    b.record('GET', '/s', 'p4', 400, 'text/plain', 'nope');
  }
  t.same(merged.entries(), [
    { method: 'GET', path: '/s', category: 'query', reason: "query parameter 'q' is required", occurrences: 2, probe: 'p1' },
    { method: 'GET', path: '/s', category: 'request-body', reason: 'body must be object', occurrences: 2, probe: 'p1' },
  ]);
  t.equal(kept.entries().length, 4);
  t.ok(kept.entries().every((e) => e.occurrences === 1));
  t.same(
    violationsOf(400, { errors: [{ location: 'header', message: 'h' }, { location: 'cookie', message: 'c' }, { location: 'path', message: 'p' }] }).map((v) => v.category),
    ['headers', 'cookies', 'parameters'],
  );
  t.same(violationsOf(415, { title: 'Unsupported Media Type' }), [{ category: 'request-body', reason: 'Unsupported Media Type' }]);
  t.end();
});

t.test('report paths: a directory gets fixed names, anything else is a prefix', (t) => {
  t.same(reportPaths('out/', '/w'), { json: '/w/out/conformance-report.json', html: '/w/out/conformance-report.html', issues: '/w/out/conformance-issues.json' });
  t.same(reportPaths('r/run1.json', '/w'), { json: '/w/r/run1.json', html: '/w/r/run1.html', issues: '/w/r/run1.issues.json' });
  t.same(reportPaths('run2', '/w'), { json: '/w/run2.json', html: '/w/run2.html', issues: '/w/run2.issues.json' });
  t.end();
});

t.test('HTML escaping', (t) => {
  t.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  t.end();
});

t.test('injected response violations are ones the schema certainly forbids', (t) => {
  const object = { type: 'object', required: ['id', 'secret'], properties: { id: { type: 'integer' }, secret: { type: 'string', writeOnly: true } } };
  t.same(corrupt({ id: 1, secret: 's' }, object, view), { value: { secret: 's' }, how: "removed required property 'id'" });
  t.same(corrupt([1], { type: 'array' }, view).value, 'mock-injected-violation');
  t.same(corrupt('x', { type: ['string', 'null'] }, view).value, 1234.5);
  t.equal(corrupt({ a: 1 }, {}, view), undefined, 'an empty schema accepts anything');
  t.equal(corrupt({ a: 1 }, { properties: { a: { type: 'integer' } } }, view), undefined, 'properties without type do not make it an object');
  t.end();
});
