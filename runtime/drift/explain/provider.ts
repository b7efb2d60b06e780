import { redactUrlCredentials } from '../../../common/redacted.js';

/**
 * --llm-provider: a known name or the base URL of any OpenAI-compatible API (the part before
 * `/chat/completions`). The key is read from MOCK_LLM_API_KEY for any provider; OPENAI_API_KEY
 * only for the provider `openai`, so an OpenAI key never goes to another host.
 */
export const LLM_PROVIDERS: Readonly<Record<string, string>> = {
  openai: 'https://api.openai.com/v1',
  ollama: 'http://localhost:11434/v1',
};

export interface LlmEndpoint {
  /** `${base}/chat/completions`. */
  url: string;
  /** The URL as messages show it (a password in it redacted). */
  shown: string;
  apiKey?: string;
}

/** The endpoint a --llm-provider names, or a one-line problem naming the flag. */
export function resolveLlmProvider(provider: string, env: NodeJS.ProcessEnv = process.env): LlmEndpoint | string {
  const base = LLM_PROVIDERS[provider.toLowerCase()] ?? provider;
  if (!/^https?:\/\/[^\s/?#]+/i.test(base) || !URL.canParse(base)) {
    return `--llm-provider: expected ${Object.keys(LLM_PROVIDERS).join(', ')} or the base URL of an OpenAI-compatible API such as http://localhost:11434/v1, got ${JSON.stringify(redactUrlCredentials(provider))}`;
  }
  const url = `${base.replace(/\/+$/, '')}/chat/completions`;
  const apiKey = env.MOCK_LLM_API_KEY || (provider.toLowerCase() === 'openai' ? env.OPENAI_API_KEY : undefined) || undefined;
  return { url, shown: redactUrlCredentials(url), ...(apiKey === undefined ? {} : { apiKey }) };
}
