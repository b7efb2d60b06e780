// test/e2e/serve-responses.test.js again, served by node:http (test/helpers/node-http.js)
import { onNodeHttp } from '../helpers/node-http.js';

await onNodeHttp('serve-responses.test.js');
