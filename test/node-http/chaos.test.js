// test/e2e/chaos.test.js again, served by node:http (test/helpers/node-http.js)
import { onNodeHttp } from '../helpers/node-http.js';

await onNodeHttp('chaos.test.js');
