import { checkWebhookSecret } from '../drift/webhooks/index.js';
import { allowlistEntryProblem } from './host-allowlist.js';

/** mock.yaml `callbacks` as its checks read it (the schema has checked the types). */
export interface CallbacksSection {
  allowed_hosts?: readonly string[];
  webhooks?: { secret?: string };
}

/** What mock.yaml's `callbacks` holds that the sender could not use: allowlist entries, the webhooks' secret. One line per problem, `key: text`. */
export function checkCallbacks(section: CallbacksSection | undefined): string[] {
  if (section === undefined) return [];
  const problems: string[] = [];
  for (const [i, entry] of (section.allowed_hosts ?? []).entries()) {
    const problem = allowlistEntryProblem(
      entry
        .trim()
        .toLowerCase()
        .replace(/^\[|\]$/g, ''),
    );
    if (problem !== undefined) problems.push(`callbacks.allowed_hosts[${i}]: ${JSON.stringify(entry)} ${problem}`);
  }
  const secret = section.webhooks?.secret;
  const secretProblem = secret === undefined ? undefined : checkWebhookSecret(secret);
  if (secretProblem !== undefined) problems.push(`callbacks.webhooks.secret: ${secretProblem}`);
  return problems;
}
