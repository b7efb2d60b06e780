/**
 * A scenario's name: an npm package name (`name` or `@scope/name`), so a registry can hold it. The
 * CLI checks scenario.yaml with it; the admin API checks the {name} it is given, so that a path, a
 * URL or a Git reference never reaches the installer through an endpoint meant for the registry.
 */
export const SCENARIO_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
