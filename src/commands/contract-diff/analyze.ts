import path from 'node:path';
import { Flags } from '@oclif/core';
import { isMockError, MockError } from '../../../common/errors.js';
import { allowRefFlag, allowedRefs } from '../../cli/allow-ref.js';
import { toBuildOptions } from '../../cli/build-options.js';
import { buildFlags, flagSettings } from '../../cli/config-flags.js';
import { MockCommand } from '../../cli/mock-command.js';
import { displayPath, loadConfig, type EffectiveConfig } from '../../config/index.js';
import type { DriftWebhooks } from '../../../runtime/index.js';

export default class ContractDiffAnalyze extends MockCommand {
  static summary = 'Check captured traffic against an OpenAPI description: mismatches by kind, grouped per operation and field, with recommendations.';

  static description = [
    "Holds each captured request (and its answer, where the source has one) against the description with the server's own router and validators, and reports mismatches with stable kinds",
    '(missing_endpoint, invalid_method, missing_header, invalid_parameter, invalid_content_type, invalid_body, missing_field, type_mismatch, unknown_field, schema_mismatch, undocumented_status; docs/contract-diff-analysis.md),',
    "grouped per operation, JSON pointer and keyword, each with a recommendation: a confidence (0-1, the share of the operation's captures that agree, scaled down below 5 observations) and a suggested fix.",
    '--request-path is read in bounded memory whatever its size: a JSON file (one capture or a list), JSON Lines, a HAR file (streamed), a recordings database of mock serve --recorder, or a fixtures folder.',
    'Exit codes: 0 when no mismatch reaches --fail-on (always 0 without it); 1 when a mismatch of the --fail-on severity or worse was found; 2 when an input cannot be read (one line on stderr).',
    '--llm-provider and --llm-model ask for natural-language explanations of the groups (see "Explanations" in docs/contract-diff-analysis.md); the analysis never depends on them.',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %> --spec openapi.yaml --request-path captures.json',
    '<%= config.bin %> <%= command.id %> --spec openapi.yaml --request-path traffic.har --format markdown > drift.md',
    '<%= config.bin %> <%= command.id %> --spec openapi.yaml --request-path recordings.db --fail-on high',
    '<%= config.bin %> <%= command.id %> --spec openapi.yaml --request-path fixtures --format json > drift.json',
    '<%= config.bin %> <%= command.id %> -c mock.yaml --request-path captures.jsonl --fail-on medium',
  ];

  static flags = {
    spec: buildFlags.spec,
    config: buildFlags.config,
    ...allowRefFlag,
    'request-path': Flags.string({
      description: 'The captures: a JSON file (one capture or a list), JSON Lines, a HAR file, a recordings database of mock serve --recorder, or a fixtures folder (core.fixtures.dir)',
      helpValue: '<path>',
      required: true,
    }),
    format: Flags.string({ description: 'Output: text for a terminal, json for tools, markdown for a pull-request comment', options: ['text', 'json', 'markdown'], default: 'text' }),
    'fail-on': Flags.string({ description: 'Exit 1 when a mismatch of this severity or worse was found', options: ['high', 'medium', 'low'] }),
    'llm-provider': Flags.string({ description: 'An OpenAI-compatible endpoint that explains the mismatch groups in words (optional; see docs/contract-diff-analysis.md)', helpValue: '<url>' }),
    'llm-model': Flags.string({ description: 'The model --llm-provider explains with', helpValue: '<name>' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ContractDiffAnalyze);
    const { analyzeCaptures, explainReport, failsOn, formatReport } = await import('../../drift/analyze/index.js');
    const provider = flags['llm-provider'];
    if (provider !== undefined) {
      const { resolveLlmProvider } = await import('../../../runtime/index.js');
      const endpoint = resolveLlmProvider(provider);
      if (typeof endpoint === 'string') throw new MockError('MOCK_ERR_FLAG_INVALID', endpoint, 2);
    }
    const requestPath = path.resolve(flags['request-path']);
    let report;
    let specs: string[];
    let webhooks: DriftWebhooks | undefined;
    try {
      const resolved = loadConfig({ configPath: flags.config, flags: flagSettings({ spec: flags.spec }) });
      webhooks = await driftWebhooks(resolved.config.contract_diff);
      const build = toBuildOptions(resolved, allowedRefs(flags['allow-ref']));
      specs = build.specs.map((s) => s.source);
      const skipped = new Map<string, number>();
      report = await analyzeCaptures({
        build,
        requestPath,
        shown: flags['request-path'],
        skipped: (protocol) => skipped.set(protocol, (skipped.get(protocol) ?? 0) + 1),
        observe: ({ capture_id, method, path: requested, operation, mismatches }) => {
          if (mismatches.length > 0) webhooks?.notify({ capture_id: capture_id ?? '', method, path: requested, operation: operation ?? undefined, mismatches });
        },
      });
      for (const [protocol, count] of skipped) process.stderr.write(`mock: left out ${count} HAR entr${count === 1 ? 'y' : 'ies'} of ${protocol} URLs (not HTTP)\n`);
    } catch (e) {
      // exit 2, not 1: CI tells an input it cannot read from drift
      throw isMockError(e) ? new MockError(e.code, e.message, 2) : e;
    }
    if (provider !== undefined) {
      const warning = await explainReport(report, provider, flags['llm-model']);
      if (warning !== undefined) process.stderr.write(`mock: ${warning}\n`);
    }
    if (webhooks !== undefined) {
      await webhooks.flush();
      webhooks.close();
    }
    process.stdout.write(formatReport(report, flags.format as 'text' | 'json' | 'markdown', specs, displayPath(requestPath)));
    if (flags['fail-on'] !== undefined && failsOn(report, flags['fail-on'] as 'high' | 'medium' | 'low')) this.exit(1);
  }
}

/** contract_diff.webhooks of mock.yaml, when any: the command tells them what drifts as the server would; delivery is logged on stderr. */
async function driftWebhooks(section: EffectiveConfig['contract_diff']): Promise<DriftWebhooks | undefined> {
  const { webhooks = [], webhook_allow_private: allowPrivate = false } = section ?? {};
  if (webhooks.length === 0) return undefined;
  const { DriftWebhooks } = await import('../../../runtime/index.js');
  const log = (line: string): void => void process.stderr.write(`mock: ${line}\n`);
  return new DriftWebhooks({ webhooks, allowPrivate, log: { info: log, warn: log } });
}
