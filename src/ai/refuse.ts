import { MockError } from '../../common/errors.js';
import type { ResolvedConfig } from '../config/index.js';

/** --ai-enabled needs somewhere to ask: without ai.endpoint and ai.model the start stops in one line, before anything is built or listens. */
export function refuseAiWithoutEndpoint({ config }: ResolvedConfig): void {
  const ai = config.ai;
  if (!ai.enabled) return;
  const missing = [ai.endpoint === undefined ? 'ai.endpoint (MOCK_AI_ENDPOINT)' : undefined, ai.model === undefined ? 'ai.model (MOCK_AI_MODEL)' : undefined].filter((m) => m !== undefined);
  if (missing.length > 0) {
    throw new MockError(
      'MOCK_ERR_AI_NO_ENDPOINT',
      `--ai-enabled needs ${missing.join(' and ')}: set the base URL of an OpenAI-compatible API such as http://localhost:11434/v1 and the model to ask in mock.yaml's ai section, or drop --ai-enabled (docs/ai.md)`,
    );
  }
  if (ai.rag_provider === 'recorder' && !config.recorder.enabled) {
    throw new MockError('MOCK_ERR_AI_NO_ENDPOINT', '--rag-provider recorder reads the recorder database: add --recorder (recorder.enabled), or use --rag-provider fixtures (docs/ai.md)');
  }
}
