// --conformance-self-test --conformance-http2 over the five largest corpus descriptions, which
// test/e2e/corpus.test.js (every other description over HTTP/1.1 and HTTP/2) leaves out: the probes
// speak h2c to the mock's HTTP/2 adapter (see corpus.js).
import t from 'tap';
import { LARGEST, selfTestCorpus } from './corpus.js';

selfTestCorpus(t, LARGEST, { http2: true });
