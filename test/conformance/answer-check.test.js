// src/conformance AnswerValidator: a whole answer held against its operation's documented
// responses, rule by rule (what `mock bench` does with the answers it samples under load).
import t from 'tap';
import path from 'node:path';
import { corpus, tmpdir } from '../helpers/cli.js';
import { loadIr } from '../../dist/src/requests/index.js';
import { AnswerValidator } from '../../dist/src/conformance/index.js';

const ir = await loadIr([{ source: path.join(corpus, 'openapi/swagger-petstore-v3.yaml') }], tmpdir());
const validator = new AnswerValidator(ir);
const op = (id) => ir.operations.find((o) => o.operationId === id);
const check = (id, status, contentType, body, bodiless) => validator.check(op(id), status, contentType, body, bodiless);
const pet = JSON.stringify({ id: 1, name: 'rex', photoUrls: [] });

t.test('an answer that fits: documented status, media type and a JSON body of the schema', async (t) => {
  t.same(check('getPetById', 200, 'application/json; charset=utf-8', pet), { against: '200 application/json' });
  t.same(check('deleteOrder', 200, '', ''), { against: '200' }, 'no body where none is documented');
  t.same(check('getPetById', 200, 'application/json', undefined, true), { against: '200' }, 'HEAD, 204, 304: the status only');
});

t.test('what does not fit, and why', async (t) => {
  t.match(check('getPetById', 200, 'application/json', '{"id":1,"name":"rex"}').mismatch, "body must have property 'photoUrls'");
  t.match(check('getPetById', 200, 'application/json', '{"id":1,"na').mismatch, /^body is not JSON/, 'a truncated body');
  t.match(check('getPetById', 200, 'text/html', '<html></html>').mismatch, 'content type text/html is not documented for 200 (documented: application/json, application/xml)');
  t.match(check('getPetById', 200, '', pet).mismatch, 'no content type (documented: application/json, application/xml)');
  t.match(check('getPetById', 200, '', '').mismatch, /^no body/);
  t.match(check('getPetById', 503, 'text/html', '<html>busy</html>').mismatch, 'a body where default documents none', 'an error page where the default answer has no body');
  const mine = { ...op('getPetById'), responses: op('getPetById').responses.filter((r) => r.status !== 'default') };
  t.match(validator.check(mine, 503, 'text/plain', 'busy').mismatch, /^status 503 is not documented \(documented: 200, 400, 404\)/, 'an undocumented status');
});

t.test('bodies that are not checked say why; their status and media type are', async (t) => {
  t.same(check('getPetById', 200, 'application/xml', '<pet/>'), { against: '200 application/xml', bodyUnchecked: 'application/xml bodies are not checked (JSON ones are)' });
  t.same(check('getPetById', 200, 'application/json', undefined), { against: '200 application/json', bodyUnchecked: 'body not kept' }, 'a body not kept (over the cap)');
  t.match(check('getPetById', 200, 'text/html', undefined).mismatch, /content type text\/html is not documented/, 'a body not kept still has its media type checked');
});
