import { MockError } from '../../common/errors.js';
import { layerFromSettings, type Layer, type Setting } from './layer.js';

export type EnvType = 'integer' | 'boolean' | 'string';

export interface EnvVariable {
  name: string;
  /** Dotted config key it sets. */
  key: string;
  type: EnvType;
}

/**
 * Environment variables that set configuration keys; support another by adding a row. Only the
 * type is converted here: allowed values and ranges are the schema's job, and its errors name the
 * variable. (MOCK_CONFIG_FILE picks the file rather than a key: see lookup.ts.)
 */
export const ENV_VARIABLES: readonly EnvVariable[] = [
  { name: 'MOCK_HTTP_PORT', key: 'server.http_port', type: 'integer' },
  { name: 'MOCK_HTTP_HOST', key: 'server.bind', type: 'string' },
  { name: 'MOCK_REQUEST_VALIDATION', key: 'validation.mode', type: 'string' },
  { name: 'MOCK_RESPONSE_VALIDATION', key: 'validation.validate_responses', type: 'boolean' },
  { name: 'MOCK_RESPONSE_TEMPLATE_EXPAND', key: 'response_template_expand', type: 'boolean' },
  { name: 'MOCK_SEED', key: 'seed', type: 'integer' },
  { name: 'MOCK_LOG_LEVEL', key: 'logging.level', type: 'string' },
];

const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, '1': true, false: false, '0': false };

function convert(variable: EnvVariable, raw: string): unknown {
  switch (variable.type) {
    case 'integer': {
      const value = Number(raw);
      if (/^[+-]?\d+$/.test(raw) && Number.isSafeInteger(value)) return value;
      throw new MockError('MOCK_ERR_CONFIG_INVALID', `${variable.name}: expected integer, got ${JSON.stringify(raw)}`);
    }
    case 'boolean': {
      const value = BOOLEANS[raw.toLowerCase()];
      if (value !== undefined) return value;
      throw new MockError(
        'MOCK_ERR_CONFIG_INVALID',
        `${variable.name}: expected boolean (true, false, 1 or 0), got ${JSON.stringify(raw)}`,
      );
    }
    case 'string':
      return raw;
  }
}

/** The configuration set by `env`; a variable set to the empty string counts as unset. */
export function envLayer(env: Readonly<Record<string, string | undefined>>): Layer {
  const settings: Setting[] = [];
  for (const variable of ENV_VARIABLES) {
    const raw = env[variable.name]?.trim();
    if (raw) settings.push({ label: variable.name, key: variable.key, value: convert(variable, raw) });
  }
  return layerFromSettings('env', settings, 'MOCK_ERR_CONFIG_INVALID');
}
