/** The raw query string as name -> values (`+` is a space, bad escapes kept), for requests the caller did not parse. */
export function parseRequestQuery(raw: string): Map<string, string[]> {
  const query = new Map<string, string[]>();
  if (raw === '') return query;
  for (const [name, value] of new URLSearchParams(raw)) {
    const values = query.get(name);
    if (values === undefined) query.set(name, [value]);
    else values.push(value);
  }
  return query;
}

/** Query as templates read it: one value as a string, repeated ones as a list. */
export function queryRecord(query: Map<string, string[]>): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const [name, values] of query) record[name] = values.length === 1 ? values[0] : values;
  return record;
}

/** The body parsed as JSON for `{{request.body.*}}`; undefined when absent or not JSON. */
export function jsonBody(raw: Buffer | undefined): unknown {
  if (raw === undefined || raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}
