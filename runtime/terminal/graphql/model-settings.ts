/** What the mocked schema's values depend on (the engine fills it from GraphqlMockSettings). */
export interface ModelSettings {
  seed: number;
  now: () => number;
  listLength: { min: number; max: number };
  overrides: Record<string, Record<string, unknown>>;
  sourceSdl: string;
}
