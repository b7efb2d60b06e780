import type { CertificateMatchSpec, ConditionSpec } from '../../match/index.js';

/** An override rule as the admin API, the environment and rule files give it (see index.ts). */
export interface OverrideRule {
  name: string;
  enabled: boolean;
  /** query, headers, json_path: conditions (docs/configuration.md, "Conditions"); a bare string is the exact value. */
  match?: {
    method?: string;
    path?: string;
    query?: Record<string, ConditionSpec>;
    headers?: Record<string, ConditionSpec>;
    json_path?: Record<string, ConditionSpec>;
    client_certificate?: CertificateMatchSpec;
  };
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  merge?: Record<string, unknown>;
  delay_ms?: number;
}
