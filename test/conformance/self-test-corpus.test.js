// --conformance-self-test over every other corpus description (see corpus.js).
import t from 'tap';
import { HEAVY, files, selfTestCorpus } from './corpus.js';

t.ok(files.length >= 19, `${files.length} descriptions in the corpus`);
selfTestCorpus(t, files.filter((f) => !HEAVY.includes(f)));
