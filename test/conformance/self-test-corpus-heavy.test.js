// --conformance-self-test over the heaviest corpus descriptions (see corpus.js).
import t from 'tap';
import { HEAVY, selfTestCorpus } from './corpus.js';

selfTestCorpus(t, HEAVY);
