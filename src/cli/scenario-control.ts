import type { ScenarioControl } from '../../runtime/index.js';

/**
 * The admin API's view of the project's scenario packages. src/scenario (pacote, node-tar, the npm
 * registry clients) is imported on the first call only: a plain mock serve never loads them.
 */
export function scenarioControl(projectDir: string, configPath: string | undefined, followed: boolean): ScenarioControl {
  const scenarios = () => import('../scenario/index.js');
  const home = async () => (await scenarios()).scenarioHome(projectDir, configPath);
  const npm = async () => {
    const s = await scenarios();
    return s.registryOptions((await home()).project, s.registryOf(undefined, projectDir, configPath));
  };
  const view = ({ name, version, active, requested, resolved, integrity, dependencies, manifest }: Awaited<ReturnType<Awaited<ReturnType<typeof scenarios>>['localScenario']>>) => ({
    name,
    version,
    active,
    requested,
    resolved,
    integrity,
    dependencies,
    manifest,
  });
  return {
    marketplace: async (query) => (await scenarios()).searchRegistry(await npm(), query),
    marketplaceInfo: async (name) => (await scenarios()).registryInfo(await npm(), name),
    install: async (name, force) => (await scenarios()).installScenario(name, { cwd: projectDir, configPath, force }),
    local: async () => (await scenarios()).listLocal(await home()).map(view),
    localInfo: async (name) => view((await scenarios()).localScenario(await home(), name)),
    // mock sync reloads when .mock/active-scenario.json changes; mock serve reads it at its next start
    use: async (name) => ({ ...view((await scenarios()).useScenario(await home(), name)), restart_required: !followed }),
  };
}
