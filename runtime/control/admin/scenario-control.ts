/**
 * The scenario packages of the project being served (docs/scenarios.md), as the admin API reaches
 * them: the CLI side (src/scenario) implements it and mock serve hands it in, since the runtime does
 * not know npm registries or the project's folders. Its failures are MockErrors of the catalogue
 * (MOCK_ERR_SCENARIO_*), which the endpoints map to statuses.
 */
export interface ScenarioControl {
  /** The registry's scenarios of `category` carrying every tag. */
  marketplace(query: { category?: string; tags: string[] }): Promise<unknown[]>;
  /** One scenario of the registry: versions, category, tags, stars, integrity. */
  marketplaceInfo(name: string): Promise<unknown>;
  /** Installs the registry's latest version (with its dependencies) into .mock/scenarios; `force` replaces one installed. */
  install(name: string, force: boolean): Promise<unknown>;
  local(): Promise<unknown[]>;
  localInfo(name: string): Promise<unknown>;
  /** Makes the project serve it from the next (re)start of the servers. */
  use(name: string): Promise<unknown>;
}
