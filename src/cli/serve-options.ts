import type { Logger } from 'pino';
import type { ServeOptions } from '../../runtime/options.js';
import type { EffectiveConfig } from '../config/index.js';

export function toServeOptions(config: EffectiveConfig, buildDir: string, logger: Logger): ServeOptions {
  const { mode, aggregate_errors, validate_responses, status_code, overrides } = config.validation;
  return {
    buildDir,
    host: config.server.bind,
    port: config.server.http_port,
    validation: { mode, aggregate_errors, validate_responses, status_code, overrides },
    templateExpand: config.response_template_expand,
    seed: config.seed,
    maxBodyBytes: config.http.max_body_bytes,
    logger,
  };
}
