// test/e2e/graphql-answer-cache.test.js again, served by node:http (test/helpers/node-http.js)
import { onNodeHttp } from '../helpers/node-http.js';

await onNodeHttp('graphql-answer-cache.test.js');
