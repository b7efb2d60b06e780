import type protobuf from 'protobufjs';

/** The method's google.api.http option as written, when it has one. */
export function httpRule(method: protobuf.Method): Record<string, unknown> | undefined {
  for (const option of (method.parsedOptions ?? []) as Array<Record<string, unknown>>) {
    const rule = option['(google.api.http)'];
    if (rule !== null && typeof rule === 'object') return normalizeRule(rule as Record<string, unknown>);
  }
  return undefined;
}

/** additional_bindings as a list whatever the option's text gave (one binding parses as an object). */
function normalizeRule(rule: Record<string, unknown>): Record<string, unknown> {
  const bindings = rule.additional_bindings;
  if (bindings === undefined) return rule;
  const list = (Array.isArray(bindings) ? bindings : [bindings]) as Array<Record<string, unknown>>;
  return { ...rule, additional_bindings: list.map(normalizeRule) };
}
