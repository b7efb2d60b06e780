import type { JsonSchema } from './types.js';

/**
 * The schema extension naming a data source plugin for a generated field (docs/plugins.md):
 * `x-mock-data-source: {plugin, action, args?}`. The one extension the IR keeps: the generator
 * emits a call of the action, with the field's own generator as its fallback.
 */
export const DATA_SOURCE = 'x-mock-data-source';

export interface DataSource {
  plugin: string;
  action: string;
  args: unknown[];
}

/** The schema's data source when its extension is well formed; undefined otherwise. */
export function dataSourceOf(schema: JsonSchema | Record<string, unknown>): DataSource | undefined {
  const value = (schema as Record<string, unknown>)[DATA_SOURCE] as { plugin?: unknown; action?: unknown; args?: unknown } | undefined;
  if (value === null || typeof value !== 'object') return undefined;
  const { plugin, action, args = [] } = value;
  if (typeof plugin !== 'string' || plugin === '' || typeof action !== 'string' || action === '' || !Array.isArray(args)) return undefined;
  return { plugin, action, args };
}
