// common/errors.ts: the one catalogue of problem answers and CLI errors.
import t from 'tap';
import { CLI_ERRORS, MockError, PROBLEMS } from '../../dist/common/errors.js';
import { graphqlCodeOf, grpcStatusOf, problem, rateLimited, unauthorized } from '../../dist/runtime/chain/exchange/index.js';
import { GRPC } from '../../dist/common/grpc-status.js';

t.test('every problem code names a status, a title and a detail template; no code is in both tables', async (t) => {
  for (const [code, entry] of Object.entries(PROBLEMS)) {
    t.match(code, /^MOCK_ERR_[A-Z_]+$/, code);
    t.ok(entry.status >= 400 && entry.status <= 599, `${code}: status ${entry.status}`);
    t.type(entry.title, 'string');
    t.type(entry.detail, 'function');
    t.notOk(code in CLI_ERRORS, `${code} is not also a CLI error`);
  }
  for (const [code, meaning] of Object.entries(CLI_ERRORS)) {
    t.match(code, /^MOCK_ERR_[A-Z_]+$/, code);
    t.ok(meaning.length > 10, `${code} says what it means`);
  }
  t.equal(new MockError('MOCK_ERR_NO_SPEC', 'x').exitCode, 1);
});

t.test('problem answers carry their code and the catalogue status unless overridden', async (t) => {
  const notFound = problem('MOCK_ERR_ROUTE_NOT_FOUND', { method: 'GET', path: '/pets', mounts: ['/v1'] });
  t.equal(notFound.status, 404);
  t.same(notFound.headers, [['content-type', 'application/problem+json']]);
  t.same(JSON.parse(notFound.body), {
    type: 'about:blank',
    title: 'Not Found',
    status: 404,
    detail: 'no operation matches GET /pets (descriptions are mounted under /v1)',
    code: 'MOCK_ERR_ROUTE_NOT_FOUND',
  });
  t.equal(notFound.error, undefined, 'a 404 is an answer, not a failure: no error_message');
  t.equal(problem('MOCK_ERR_INTERNAL', {}, { logged: true }).error, 'the mock server failed to answer this request; see its log', 'logged: the detail is the error_message');
  const invalid = problem('MOCK_ERR_REQUEST_INVALID', { first: 'limit must be <= 100' }, { status: 422, extra: { errors: [{ name: 'limit' }] }, headers: [['x-a', 'b']] });
  t.equal(invalid.status, 422, 'the configured validation status');
  t.match(JSON.parse(invalid.body), { status: 422, code: 'MOCK_ERR_REQUEST_INVALID', errors: [{ name: 'limit' }] });
  t.same(invalid.headers[1], ['x-a', 'b']);
});

t.test('every problem code maps to an HTTP status and a gRPC status code; answers carry their code for every protocol', async (t) => {
  for (const [code, entry] of Object.entries(PROBLEMS)) {
    t.ok(entry.status >= 400 && entry.status <= 599, `${code}: HTTP ${entry.status}`);
    t.ok(Number.isInteger(entry.grpc) && entry.grpc > GRPC.OK && entry.grpc <= GRPC.UNAUTHENTICATED, `${code}: gRPC ${entry.grpc}`);
  }
  t.equal(PROBLEMS.MOCK_ERR_ROUTE_NOT_FOUND.grpc, GRPC.UNIMPLEMENTED, 'an unknown method is UNIMPLEMENTED in gRPC');
  t.equal(PROBLEMS.MOCK_ERR_UNAUTHORIZED.grpc, GRPC.UNAUTHENTICATED);
  t.equal(PROBLEMS.MOCK_ERR_RATE_LIMITED.grpc, GRPC.RESOURCE_EXHAUSTED);
  t.equal(PROBLEMS.MOCK_ERR_UPSTREAM_TIMEOUT.grpc, GRPC.DEADLINE_EXCEEDED);
  const invalid = problem('MOCK_ERR_REQUEST_INVALID', { first: 'x' }, { status: 422 });
  t.equal(invalid.code, 'MOCK_ERR_REQUEST_INVALID');
  t.equal(grpcStatusOf(invalid), GRPC.INVALID_ARGUMENT, "a status of the user's choosing maps by itself (validation.status_code 422)");
  t.equal(grpcStatusOf(problem('MOCK_ERR_FAULT_INJECTED', { rate: 1 })), GRPC.UNAVAILABLE, "the entry's own status: the entry's code");
  t.equal(grpcStatusOf(problem('MOCK_ERR_FAULT_INJECTED', { rate: 1 }, { status: 429 })), GRPC.RESOURCE_EXHAUSTED, 'a fault injected with a chosen status maps by it');
  t.equal(grpcStatusOf(problem('MOCK_ERR_FAULT_INJECTED', { rate: 1 }, { status: 504 })), GRPC.DEADLINE_EXCEEDED);
  t.equal(graphqlCodeOf(invalid), 'MOCK_ERR_REQUEST_INVALID');
  t.equal(rateLimited([]).code, 'MOCK_ERR_RATE_LIMITED', 'answers in the spec shapes carry it too');
  t.equal(unauthorized({ method: 'GET', path: '/', expected: 'a key' }, []).answer.code, 'MOCK_ERR_UNAUTHORIZED');
  const overridden = { status: 404, headers: [], body: '' };
  t.equal(grpcStatusOf(overridden), GRPC.NOT_FOUND, "an answer outside the catalogue maps by its HTTP status");
  t.equal(grpcStatusOf({ ...overridden, status: 503 }), GRPC.UNAVAILABLE);
  t.equal(grpcStatusOf({ ...overridden, status: 200 }), GRPC.OK);
  t.equal(graphqlCodeOf({ ...overridden, status: 503 }), 'HTTP_503');
});
