// The node:http pass: core end-to-end files of test/e2e/ run a second time, every `mock` they start
// serving with node:http (the server on Node 24 and 26, where uWebSockets.js has no build). Each
// file of test/node-http/ names one; MOCK_HTTP_BACKEND beats mock.yaml, so servers a file asks
// for with `http_backend: uws` serve with node:http too. The helpers' runMock and startCommand
// pass the variable on (runCli, a user's fresh shell, does not).
/** Runs test/e2e/<file> with MOCK_HTTP_BACKEND=node. */
export async function onNodeHttp(file) {
  process.env.MOCK_HTTP_BACKEND = 'node';
  await import(new URL(`../e2e/${file}`, import.meta.url));
}

/**
 * A subtest's `skip` in the node:http pass, for a subtest that would test nothing more there: one
 * that compares node:http with uWS itself, or whose subject is not the server library. `why`
 * says which.
 */
export const onceAcrossBackends = (why) => (process.env.MOCK_HTTP_BACKEND === 'node' ? `run once, in the uWS pass: ${why}` : false);
