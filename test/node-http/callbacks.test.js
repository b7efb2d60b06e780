// test/e2e/callbacks.test.js again, served by node:http (test/helpers/node-http.js): callbacks are sent from the chain's hook after the answer, whichever library wrote it
import { onNodeHttp } from '../helpers/node-http.js';

await onNodeHttp('callbacks.test.js');
