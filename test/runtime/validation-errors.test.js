// runtime/terminal/openapi/validation-errors.ts: Ajv errors as validation issues users can read.
import t from 'tap';
import { bodyIssues, paramIssues } from '../../dist/runtime/terminal/openapi/validation-errors.js';

t.test('parameter issues name location and parameter', (t) => {
  t.same(paramIssues([{ instancePath: '/query/limit', keyword: 'maximum', message: 'must be <= 100', params: { limit: 100 } }]), [
    { location: 'query', name: 'limit', message: "query parameter 'limit' must be <= 100", keyword: 'maximum' },
  ]);
  t.same(paramIssues([{ instancePath: '/header', keyword: 'required', message: "must have required property 'x-tenant'", params: { missingProperty: 'x-tenant' } }]), [
    { location: 'header', name: 'x-tenant', message: "header parameter 'x-tenant' is required", keyword: 'required' },
  ]);
  t.same(paramIssues([{ instancePath: '', keyword: 'required', params: { missingProperty: 'path' } }])[0].location, '', 'a missing location');
  t.same(paramIssues([{ instancePath: '/query/filter/age', keyword: 'type', message: 'must be integer', params: {} }])[0].message, "query parameter 'filter' at /age must be integer", 'deepObject members');
  t.same(paramIssues([{ instancePath: '/query/kind', keyword: 'enum', message: 'x', params: { allowedValues: ['cat', 'dog', null] } }])[0].message, 'query parameter \'kind\' must be one of "cat", "dog", null');
  t.same(paramIssues([{ instancePath: '/path/a~1b', keyword: 'type', params: {} }])[0], { location: 'path', name: 'a/b', message: "path parameter 'a/b' fails type", keyword: 'type' }, 'pointer escapes; missing message');
  t.same(paramIssues([{ instancePath: '/query/q', keyword: 'required', message: 'x', params: { missingProperty: 'inner' } }])[0].message, "query parameter 'q' x", 'required inside a parameter value');
  t.same(paramIssues([]), []);
  t.end();
});

t.test('body issues carry JSON pointers', (t) => {
  t.same(bodyIssues([{ instancePath: '/owner/email', keyword: 'format', message: 'must match format "email"', params: { format: 'email' } }]), [
    { location: 'body', name: '/owner/email', message: 'body /owner/email must match format "email"', keyword: 'format' },
  ]);
  t.same(bodyIssues([{ instancePath: '', keyword: 'required', message: "must have required property 'name'", params: { missingProperty: 'name' } }]), [
    { location: 'body', name: '/name', message: "body must have required property 'name'", keyword: 'required' },
  ], 'required names the missing member');
  t.same(bodyIssues([{ instancePath: '', keyword: 'additionalProperties', message: 'must NOT have additional properties', params: { additionalProperty: 'extra' } }])[0].message, "body must not have property 'extra'");
  t.same(bodyIssues([{ instancePath: '/kind', keyword: 'enum', params: { allowedValues: [1, 'a'] } }])[0].message, 'body /kind must be one of 1, "a"');
  t.same(bodyIssues([{ instancePath: '', keyword: 'type', message: 'must be object', params: {} }])[0], { location: 'body', name: '', message: 'body must be object', keyword: 'type' });
  t.end();
});
