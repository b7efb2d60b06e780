import { statSync } from 'node:fs';
import { Flags } from '@oclif/core';
import { MockError } from '../../common/errors.js';
import { credentialSecrets, fingerprintRules, type FingerprintRules, type Secrets } from '../../common/fixtures/index.js';
import { displayPath, loadConfig } from '../config/index.js';

/** --dir and --config of the fixture commands. */
export const fixtureFlags = {
  dir: Flags.string({
    description: 'Fixture folder; HTTP fixtures are the *.json files below its http/ folder [default: core.fixtures.dir of mock.yaml, ./fixtures]',
    helpValue: '<dir>',
  }),
  config: Flags.string({
    char: 'c',
    description: 'Config file, for core.fixtures (folder and fingerprint rules) and server.http_port [default: mock.yaml, mock.yml, .mock.yaml or .mock.yml in this or a parent directory]',
    helpValue: '<path>',
  }),
};

export interface FixtureSettings {
  /** Absolute. */
  dir: string;
  rules: FingerprintRules;
  /** What recordings hold redacted: logging.redact_credentials and logging.redact, as the request log. */
  secrets: Secrets;
  /** Where `mock serve` of this configuration answers: http://<server.bind, loopback for any>:<server.http_port>. */
  serverUrl: string;
}

/** The fixture folder (--dir over core.fixtures.dir) and the fingerprint rules of the configuration in force. */
export function fixtureSettings(flags: { dir?: string; config?: string }): FixtureSettings {
  const dirFlag = flags.dir === undefined ? [] : [{ flag: 'dir', key: 'core.fixtures.dir', value: flags.dir }];
  const { config } = loadConfig({ configPath: flags.config, flags: dirFlag });
  const { bind, http_port } = config.server;
  const host = bind === '' || bind === '0.0.0.0' || bind === '::' ? '127.0.0.1' : bind.includes(':') ? `[${bind}]` : bind;
  return {
    dir: config.core.fixtures.dir,
    rules: fingerprintRules(config.core.fixtures),
    secrets: credentialSecrets({ credentials: config.logging.redact_credentials, names: config.logging.redact }),
    serverUrl: `${config.server.tls === undefined ? 'http' : 'https'}://${host}:${http_port}`,
  };
}

/** Stops with one line when the fixture folder is not there: a typo must not read as "no fixtures". */
export function requireFolder(command: string, dir: string): void {
  let folder = false;
  try {
    folder = statSync(dir).isDirectory();
  } catch {
    // missing or unreadable: said below
  }
  if (!folder) throw new MockError('MOCK_ERR_FIXTURES_DIR', `mock ${command}: there is no fixture folder ${displayPath(dir)}: give --dir the folder that holds http/ (or set core.fixtures.dir in mock.yaml)`);
}
