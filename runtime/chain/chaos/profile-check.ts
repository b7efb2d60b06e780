import { checkBound } from '../../../common/bounds.js';
import { checkChaosPatch } from './check.js';
import { got, isNumber, isObject } from './messages.js';

const PROFILE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const PROFILE_KEYS = ['name', 'description', 'tags', 'builtin', 'chaos_config'];
const CONFIG_KEYS = ['latency', 'fault_injection', 'traffic_shaping', 'rate_limit'];
const LATENCY_KEYS = ['enabled', 'fixed_delay_ms', 'jitter_ms', 'probability'];

function checkLatency(latency: unknown, where: string): string[] {
  if (!isObject(latency)) return [`${where}: expected {enabled, fixed_delay_ms, jitter_ms, probability}${got(latency)}`];
  const problems = Object.keys(latency)
    .filter((key) => !LATENCY_KEYS.includes(key))
    .map((key) => `${where}.${key}: unknown setting (expected one of ${LATENCY_KEYS.join(', ')})`);
  if (typeof latency.enabled !== 'boolean') problems.push(`${where}.enabled: expected true or false${got(latency.enabled)}`);
  for (const key of ['fixed_delay_ms', 'jitter_ms']) {
    const problem = latency[key] === undefined ? undefined : checkBound('delayMs', latency[key]);
    if (problem !== undefined) problems.push(`${where}.${key}: ${problem}`);
  }
  const p = latency.probability;
  if (p !== undefined && !(isNumber(p) && p >= 0 && p <= 1)) problems.push(`${where}.probability: expected a probability from 0.0 to 1.0${got(p)}`);
  return problems;
}

/**
 * What is wrong with a chaos profile document ({name, description, tags, chaos_config}: mock.yaml's
 * observability.chaos.profiles, or a Chaos API body), one line per problem naming the key below
 * `where` (which may be empty); empty when fine.
 */
export function checkProfile(profile: unknown, where: string): string[] {
  const at = (key: string): string => (where === '' ? key : `${where}.${key}`);
  if (!isObject(profile)) return [`${where || 'the body'}: expected a chaos profile {"name": …, "chaos_config": {…}}${got(profile)}`];
  const { name, description, tags, builtin, chaos_config } = profile;
  const problems = Object.keys(profile)
    .filter((key) => !PROFILE_KEYS.includes(key))
    .map((key) => `${at(key)}: unknown setting (expected one of ${PROFILE_KEYS.join(', ')})`);
  if (typeof name !== 'string' || !PROFILE_NAME.test(name)) problems.push(`${at('name')}: expected letters, digits, _ . - (at most 64)${got(name)}`);
  if (description !== undefined && typeof description !== 'string') problems.push(`${at('description')}: expected a string${got(description)}`);
  if (tags !== undefined && !(Array.isArray(tags) && tags.every((tag) => typeof tag === 'string'))) problems.push(`${at('tags')}: expected a list of strings${got(tags)}`);
  if (builtin !== undefined && typeof builtin !== 'boolean') problems.push(`${at('builtin')}: expected true or false${got(builtin)}`);
  if (!isObject(chaos_config)) return [...problems, `${at('chaos_config')}: expected an object${got(chaos_config)}`];
  const { latency, ...blocks } = chaos_config;
  for (const key of Object.keys(blocks)) {
    if (!CONFIG_KEYS.includes(key)) problems.push(`${at('chaos_config')}.${key}: unknown setting (expected ${CONFIG_KEYS.join(', ')})`);
  }
  if (latency !== undefined) problems.push(...checkLatency(latency, `${at('chaos_config')}.latency`));
  const known = Object.fromEntries(Object.entries(blocks).filter(([key]) => CONFIG_KEYS.includes(key)));
  return [...problems, ...checkChaosPatch(known, at('chaos_config'))];
}
