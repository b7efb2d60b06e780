// mock bench's answer sample keeps at most a budget of body text per worker and round: past it an
// answer is kept without its body, with the reason, so many operations with large bodies cannot
// exhaust the load generator's memory; an answer replaced in the reservoir gives its share back.
import t from 'tap';
import { Recorder, SAMPLED_ANSWERS } from '../../dist/src/bench/worker/recorder.js';

const keptText = (result) => result.operations.flatMap((op) => op.answers ?? []).reduce((sum, answer) => sum + (answer.body?.length ?? 0), 0);

t.test('bodies past the budget are kept without their text, saying why', async (t) => {
  const budget = 10_000;
  const recorder = new Recorder(3, budget);
  const body = Buffer.alloc(1_000, 'x');
  // three operations, each offered enough answers to fill and then churn its reservoir
  for (let round = 0; round < 5 * SAMPLED_ANSWERS; round++) {
    for (let op = 0; op < 3; op++) {
      const slot = recorder.offerAnswer(op);
      if (slot >= 0) recorder.keepAnswer(op, slot, 200, 'application/json', body, false);
    }
  }
  const result = recorder.result(1000, 1, false);
  const answers = result.operations.flatMap((op) => op.answers);
  t.equal(answers.length, 3 * SAMPLED_ANSWERS, 'every slot of every reservoir filled');
  t.ok(keptText(result) <= budget, `at most the budget of text kept (${keptText(result)})`);
  t.ok(keptText(result) >= budget - body.length, 'and the budget used: a replaced answer gives its share back');
  const unkept = answers.filter((answer) => answer.body === null);
  t.ok(unkept.length > 0, 'the others are kept without their body');
  t.match(unkept[0].unkept, /sampled bodies were spent/, 'with the reason');
});

t.test('a body over the cap says so', async (t) => {
  const recorder = new Recorder(1);
  recorder.keepAnswer(0, recorder.offerAnswer(0), 200, 'application/json', null, false);
  t.match(recorder.result(1000, 1, false).operations[0].answers[0], { body: null, unkept: 'body over 1 MiB' });
});
