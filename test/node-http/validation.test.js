// test/e2e/validation.test.js again, served by node:http (test/helpers/node-http.js)
import { onNodeHttp } from '../helpers/node-http.js';

await onNodeHttp('validation.test.js');
