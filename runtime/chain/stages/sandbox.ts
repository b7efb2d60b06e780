import type { Answer } from '../exchange/index.js';
import { afterNext, defineStage } from '../stage.js';

/**
 * What every answer of the mock carries while the admin is embedded in it. Without
 * allow-same-origin, a document rendered from a mock answer (a runtime mock, the proxy, a
 * description's example) gets an opaque origin: it cannot read the admin page that shares its
 * origin, and its requests say `Origin: null`, which the admin refuses.
 */
export const EMBEDDED_SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

const sandboxed = (answer: Answer): Answer => ({ ...answer, headers: [...answer.headers, ['content-security-policy', EMBEDDED_SANDBOX]] });

/**
 * Registered only when the admin is embedded, outermost, so that it marks whatever the stages
 * inside answer (and, through `decorate`, the 413 and 500 answers made outside the chain); a
 * server without the embedded admin never pays for it.
 */
export const sandboxStage = defineStage({ slot: 'sandbox', kinds: ['description'] }, ({ settings }) => {
  if (settings.sandboxAnswers !== true) return undefined;
  return {
    appliesTo: () => true,
    run: (ex, next) => afterNext(next(ex), sandboxed),
    decorate: (_ex, answer) => sandboxed(answer),
  };
});
