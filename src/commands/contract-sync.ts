import { setTimeout } from 'node:timers/promises';
import { Flags } from '@oclif/core';
import type { Validators } from '../drift/sync/index.js';
import { MockError } from '../../common/errors.js';
import { buildFlags } from '../cli/config-flags.js';
import { failureExitCode, failureLine } from '../cli/failure.js';
import { MockCommand } from '../cli/mock-command.js';
import { loadConfig } from '../config/index.js';

export default class ContractSync extends MockCommand {
  static summary = 'Pull API descriptions from URLs into the project, show what changed and fail on breaking changes.';

  static description = [
    'Each --url is fetched into the --to of the same position with If-None-Match / If-Modified-Since, from a state file <to>.sync.json beside the target (url, etag, last_modified, sha256, fetched_at; commit it or ignore it).',
    'A 304 answer writes nothing. Otherwise the local description is compared with the fetched one (as mock contract-diff compare does: OpenAPI, GraphQL or .proto, kind from the --to extension), the report printed, and the target replaced atomically (a temporary file beside it, then a rename: never a partial file).',
    'With --fail-on, a change of that severity or worse leaves the local file and its state as they were (the next run fetches and fails again) unless --force is given.',
    'Only http(s) URLs; bodies above 50 MB are refused. In text format the status lines go to stdout; with json or markdown they go to stderr, so stdout holds only the reports.',
    '--watch N polls every N seconds until stopped, printing reports and one-line errors as they happen (a change kept by --fail-on is reported once, while the server keeps answering with the same ETag or Last-Modified).',
    'Exit codes: 0 when every description synced (or was unchanged) and no change reached --fail-on; 1 when one did; 2 when a URL cannot be fetched or its description cannot be read (one line on stderr per URL; the other pairs still sync).',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %> --url https://api.example.com/openapi.yaml --to specs/openapi.yaml',
    '<%= config.bin %> <%= command.id %> --url https://api.example.com/openapi.yaml --to specs/openapi.yaml --fail-on error',
    '<%= config.bin %> <%= command.id %> --url https://a.example.com/openapi.json --to a.json --url https://b.example.com/schema.graphql --to b.graphql',
    '<%= config.bin %> <%= command.id %> --url https://api.example.com/openapi.yaml --to openapi.yaml --format markdown > api-changes.md',
    '<%= config.bin %> <%= command.id %> --url https://api.example.com/openapi.yaml --to openapi.yaml --fail-on warning --force',
    '<%= config.bin %> <%= command.id %> --url https://api.example.com/openapi.yaml --to openapi.yaml --fail-on error --watch 60',
  ];

  static flags = {
    url: Flags.string({ description: 'An http(s) URL of a description; repeatable, paired in order with --to', helpValue: '<url>', required: true, multiple: true }),
    to: Flags.string({
      description: 'The local file the URL of the same position is synced into (.yaml, .yml, .json, .graphql, .gql, .graphqls or .proto; its folder must exist)',
      helpValue: '<path>',
      required: true,
      multiple: true,
    }),
    format: Flags.string({ description: 'Report: text for a terminal, json for tools, markdown for a pull-request comment', options: ['text', 'json', 'markdown'], default: 'text' }),
    'fail-on': Flags.string({
      description: 'Exit 1, and keep the local file, when a change of this severity or worse arrives: error (breaking) or warning (possibly breaking too)',
      options: ['error', 'warning'],
    }),
    force: Flags.boolean({ description: 'Replace the local file even when a change reaches --fail-on (the exit code is still 1)' }),
    watch: Flags.integer({
      description: 'Poll every this many seconds until stopped: reports and errors as they happen, nothing while the server answers 304; a kept change is reported once',
      helpValue: '<seconds>',
      min: 1,
    }),
    timeout: Flags.integer({ description: 'Seconds to wait for each URL', helpValue: '<seconds>', default: 30, min: 1 }),
    config: buildFlags.config,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ContractSync);
    if (flags.url.length !== flags.to.length) {
      throw new MockError('MOCK_ERR_SPEC_FETCH', `mock contract-sync: ${flags.url.length} --url but ${flags.to.length} --to: give one --to after each --url`, 2);
    }
    const { syncDescription } = await import('../drift/sync/index.js');
    const { formatReport } = await import('../drift/compare/index.js');
    const { severities } = loadConfig({ configPath: flags.config }).config.contract_diff ?? {};
    const format = flags.format as 'text' | 'json' | 'markdown';
    const status = (line: string): boolean => (format === 'text' ? process.stdout : process.stderr).write(`${line}\n`);
    const failOn = flags['fail-on'] as 'error' | 'warning' | undefined;
    const kept = new Map<string, Validators>();
    const round = async (): Promise<number> => {
      let exitCode = 0;
      for (const [index, url] of flags.url.entries()) {
        const target = flags.to[index];
        try {
          const result = await syncDescription(url, target, { timeoutMs: flags.timeout * 1000, severities, failOn, force: flags.force, kept: kept.get(target) });
          if (result.outcome === 'unchanged') {
            // polling: silence while nothing changes
            if (flags.watch === undefined) status(`${target}: unchanged (the server answered 304 Not Modified)`);
            continue;
          }
          process.stdout.write(formatReport(result.report, format));
          if (result.failed) exitCode = Math.max(exitCode, 1);
          if (result.outcome === 'kept') kept.set(target, result.validators);
          else kept.delete(target);
          status(
            result.outcome === 'kept' ? `${target}: kept: a change reaches --fail-on ${failOn} (pass --force to replace it anyway)` : `${target}: ${result.outcome} from ${result.report.newSpec}`,
          );
        } catch (e) {
          process.stderr.write(`${failureLine(e as Error, this.id, this.ctor)}\n`);
          exitCode = Math.max(exitCode, 2, failureExitCode(e as Error));
        }
      }
      return exitCode;
    };
    if (flags.watch !== undefined) {
      // runs until stopped: each round holds at most one description per pair, errors are one line and the next round retries
      for (;;) {
        await round();
        await setTimeout(flags.watch * 1000);
      }
    }
    const exitCode = await round();
    if (exitCode !== 0) this.exit(exitCode);
  }
}
