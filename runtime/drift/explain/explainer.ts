import { visibleControls } from '../../../common/terminal-text.js';
import type { ExplainGroup } from './group.js';
import { chatCompletion } from './chat.js';
import { SYSTEM_PROMPT, groupPrompt } from './prompt.js';
import { resolveLlmProvider, type LlmEndpoint } from './provider.js';

/** The whole explanation step's limit: no group waits past it, so the analysis ends at most this much later. */
export const LLM_TIMEOUT_MS = 5000;
/** Groups explained per run, the first ones given (the analysis lists the worst first). */
export const MAX_EXPLAINED_GROUPS = 5;
/** Characters of an explanation kept: an answer is cut there, with `…`. */
export const MAX_EXPLANATION_CHARS = 500;

export interface ExplainOptions {
  /** --llm-provider; absent or empty: no explanations, and no warning. */
  provider?: string;
  /** --llm-model. */
  model?: string;
  timeoutMs?: number;
  maxGroups?: number;
  /** Where MOCK_LLM_API_KEY and OPENAI_API_KEY are read (default process.env). */
  env?: NodeJS.ProcessEnv;
}

export interface Explanations {
  /** One per group given, in order: the explanation, or undefined for a group not explained. */
  explanations: Array<string | undefined>;
  /** One line when a configured provider gave fewer explanations than asked for; never names the key. */
  warning?: string;
}

/**
 * Natural-language explanations of mismatch groups from an OpenAI-compatible endpoint (POST
 * `/chat/completions`), all asked at once and given up together at the timeout. Never throws:
 * whatever goes wrong is the one-line warning, and the analysis goes on without explanations.
 */
export async function explainGroups(groups: readonly ExplainGroup[], options: ExplainOptions): Promise<Explanations> {
  const explanations: Array<string | undefined> = groups.map(() => undefined);
  if (options.provider === undefined || options.provider === '' || groups.length === 0) return { explanations };
  const endpoint = resolveLlmProvider(options.provider, options.env);
  if (typeof endpoint === 'string') return { explanations, warning: `LLM explanations skipped: ${endpoint}` };
  if (options.model === undefined || options.model === '') return { explanations, warning: 'LLM explanations skipped: --llm-model names the model to ask (--llm-provider is set)' };
  const timeoutMs = options.timeoutMs ?? LLM_TIMEOUT_MS;
  const asked = groups.slice(0, options.maxGroups ?? MAX_EXPLAINED_GROUPS);
  const controller = new AbortController();
  const problems: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve();
    }, timeoutMs);
  });
  const answers = asked.map((group, i) =>
    ask(endpoint, options.model as string, group, controller.signal).then(
      (text) => {
        explanations[i] = text;
      },
      (error: Error) => {
        problems.push(controller.signal.aborted ? `no answer within ${timeoutMs} ms` : error.message);
      },
    ),
  );
  await Promise.race([Promise.all(answers), deadline]);
  clearTimeout(timer);
  controller.abort();
  const missing = asked.filter((_, i) => explanations[i] === undefined).length;
  if (missing === 0) return { explanations };
  const why = problems[0] ?? `no answer within ${timeoutMs} ms`;
  return { explanations, warning: `LLM explanations: ${missing} of ${asked.length} groups without one (${endpoint.shown}: ${why})` };
}

async function ask(endpoint: LlmEndpoint, model: string, group: ExplainGroup, signal: AbortSignal): Promise<string> {
  const content = await chatCompletion(
    endpoint,
    model,
    [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: groupPrompt(group) },
    ],
    signal,
  );
  return shortened(content);
}

/** One line a terminal shows as it is: whitespace runs as one space, control characters escaped, cut at MAX_EXPLANATION_CHARS. */
function shortened(content: string): string {
  const line = visibleControls(content.replace(/\s+/g, ' ').trim());
  return line.length <= MAX_EXPLANATION_CHARS ? line : `${line.slice(0, MAX_EXPLANATION_CHARS - 1)}…`;
}
