/** The named non-empty string fields of a JSON body, or the sentence saying which one is wrong. */
export function stringFields<K extends string>(body: unknown, what: string, names: readonly K[]): Record<K, string> | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return `${what} body must be a JSON object with ${names.join(', ')}`;
  }
  const fields = {} as Record<K, string>;
  for (const name of names) {
    const value = (body as Record<string, unknown>)[name];
    if (typeof value !== 'string' || value === '') return `${what} body field ${name} must be a non-empty string`;
    fields[name] = value;
  }
  return fields;
}
