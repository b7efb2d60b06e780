import type { Logger } from 'pino';
import { resolveLlmProvider, type AiOptions } from '../../runtime/index.js';
import { activeScenarioAiRules, type ResolvedConfig } from '../config/index.js';
import { loadIr } from '../requests/load-ir.js';
import { toBuildOptions } from '../cli/build-options.js';
import { aiOperations } from './operations.js';

const MB = 1024 * 1024;

/**
 * mock.yaml `ai` as the HTTP mock's ai stage reads it, when enabled: the endpoint (its key from
 * ai.api_key, MOCK_AI_API_KEY), and the operations mock.yaml's ai.rules and the scenario's
 * mockai_rules name (or every one with all_generated_routes), read from the descriptions as built.
 */
export async function aiOptions(resolved: ResolvedConfig, allowRefs: string[], logger: Logger): Promise<AiOptions | undefined> {
  const ai = resolved.config.ai;
  if (!ai.enabled || ai.endpoint === undefined || ai.model === undefined || resolved.config.specs.length === 0) return undefined;
  const endpoint = resolveLlmProvider(ai.endpoint, {});
  if (typeof endpoint === 'string') throw new Error(endpoint);
  const build = toBuildOptions(resolved, allowRefs);
  const ir = await loadIr(build.specs, build.cwd, 'ai', allowRefs);
  const rules = [...ai.rules.map((rule, i) => ({ ...rule, from: `ai.rules[${i}]` })), ...activeScenarioAiRules(resolved.projectDir)];
  const operations = aiOperations(ir, rules, ai.all_generated_routes, (line) => logger.warn(line));
  if (Object.keys(operations).length === 0) logger.warn("ai: no operation is answered by the model: name some in ai.rules (or a scenario's mockai_rules), or set ai.all_generated_routes (docs/ai.md)");
  return {
    endpoint: { ...endpoint, ...(ai.api_key === undefined ? {} : { apiKey: ai.api_key }) },
    model: ai.model,
    timeoutMs: ai.timeout_ms,
    operations,
    ragProvider: ai.rag_provider,
    ragExamples: ai.rag_examples,
    cacheMaxBytes: ai.cache_max_mb * MB,
  };
}
