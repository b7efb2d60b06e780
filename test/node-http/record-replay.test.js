// test/e2e/record-replay.test.js again, served by node:http (test/helpers/node-http.js)
import { onNodeHttp } from '../helpers/node-http.js';

await onNodeHttp('record-replay.test.js');
