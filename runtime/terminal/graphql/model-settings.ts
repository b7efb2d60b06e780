import type { TemplatePlugins } from '../../template/index.js';

/** What the mocked schema's values depend on (the engine fills it from GraphqlMockSettings). */
export interface ModelSettings {
  seed: number;
  /** The clock generated dates count from (the start of its day). */
  now: () => number;
  /** The same clock, for override templates, which read it to the millisecond ({{now}}, faker.date.*). */
  instant: () => number;
  listLength: { min: number; max: number };
  overrides: Record<string, Record<string, unknown>>;
  sourceSdl: string;
  /** Answers the overrides' {{plugin:…}} tokens (mock.yaml plugins). */
  plugins?: TemplatePlugins;
}
