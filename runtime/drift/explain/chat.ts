import type { LlmEndpoint } from './provider.js';

/** Bytes of an endpoint's answer read. */
const MAX_ANSWER_BYTES = 256 * 1024;

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/**
 * One chat completion from an OpenAI-compatible endpoint (POST `/chat/completions`): the text of
 * `choices[0].message.content`. Throws a one-line Error (never naming the key) when the endpoint
 * fails, answers too much or answers without content; `signal` ends the wait.
 */
export async function chatCompletion(endpoint: LlmEndpoint, model: string, messages: readonly ChatMessage[], signal: AbortSignal): Promise<string> {
  const response = await fetch(endpoint.url, {
    method: 'POST',
    signal,
    headers: { 'content-type': 'application/json', ...(endpoint.apiKey === undefined ? {} : { authorization: `Bearer ${endpoint.apiKey}` }) },
    body: JSON.stringify({ model, temperature: 0, messages }),
  });
  const text = await boundedText(response);
  if (!response.ok) throw new Error(`answered ${response.status}`);
  let content: unknown;
  try {
    content = (JSON.parse(text) as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message?.content;
  } catch {
    throw new Error('answered something other than JSON');
  }
  if (typeof content !== 'string' || content.trim() === '') throw new Error('answered without choices[0].message.content');
  return content;
}

async function boundedText(response: Response): Promise<string> {
  if (response.body === null) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) throw new Error(`answered more than ${MAX_ANSWER_BYTES} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
