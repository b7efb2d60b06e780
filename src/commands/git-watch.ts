import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { Flags } from '@oclif/core';
import { parseDuration } from '../../common/duration.js';
import { MockError } from '../../common/errors.js';
import { redactUrlCredentials } from '../../common/redacted.js';
import { AdminClient, adminFlags } from '../cli/admin-client.js';
import { restartInProcess, restartThroughAdmin } from '../cli/mock-restart.js';
import type { GitWatcher as Watcher, GitWatchOptions, WatchedDescription } from '../drift/git-watch/index.js';
import { allowRefFlag, allowedRefs } from '../cli/allow-ref.js';
import { buildFlags, flagSettings, serveFlags } from '../cli/config-flags.js';
import { failureLine } from '../cli/failure.js';
import { protoDirInUse, toBuildOptions } from '../cli/build-options.js';
import { keepServing } from '../cli/keep-serving.js';
import { MockCommand } from '../cli/mock-command.js';
import { startServing } from '../cli/start-serving.js';
import { startLines } from '../cli/start-lines.js';
import { untilSignal } from '../cli/until-signal.js';
import { workerCount } from '../cli/workers/count.js';
import { isUrl, loadConfig, type ResolvedConfig } from '../config/index.js';

export default class GitWatch extends MockCommand {
  static summary = 'Serve the project and follow its git repository: on each commit (or remote change) print what changed in the served descriptions and reload the mock.';

  static description = [
    'Serves as mock serve does (same flags, same mock.yaml) and watches the git working tree around the served descriptions (file-system events on .git, no polling).',
    'When HEAD moves (a commit, a checkout, a pull), each served description that changed is compared as it was at the commit served and as it is at the new one (the report of mock contract-diff compare), and the HTTP mock reloads without refusing a request.',
    'A description that no longer reads (or a build that fails) is one line on stderr, and the last good build keeps serving.',
    '--uncommitted reacts to saved edits of the description folders too, comparing with what is served.',
    '--remote and --branch also fetch that branch every --interval; what it changed is reported; --fast-forward moves the checked-out branch to it (git merge --ff-only: never over local changes) and the mock reloads.',
    'A failed fetch is one line on stderr, and watching goes on.',
    'The GraphQL and gRPC servers do not reload in place: a change to their schema or .proto files is reported, and serves after a restart.',
    '--once serves nothing: it compares --since (default HEAD~1) with HEAD (or the working tree with --uncommitted; or fetches once with --remote), prints the reports (and reloads the --admin-url server, if given) and exits: 0, 1 when a change reaches --fail-on, 2 when a description cannot be read or git fails.',
    'Running, --fail-on says such a change in one line and goes on.',
    '--admin-url serves nothing and reloads a mock serve --admin (with --workers, every worker) running on the same working tree instead; --token and --management-token as for the other admin commands.',
  ].join(' ');

  static examples = [
    '<%= config.bin %> <%= command.id %> --spec api.yaml',
    '<%= config.bin %> <%= command.id %> -c mock.yaml --uncommitted',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --remote origin --branch main --interval 1m --fast-forward',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --format json --fail-on error',
    'MOCK_ADMIN_TOKEN=… <%= config.bin %> <%= command.id %> -c mock.yaml --admin-url http://127.0.0.1:9080',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --once --since origin/main --fail-on error --format markdown > api-changes.md',
    '<%= config.bin %> <%= command.id %> --spec api.yaml --once --remote origin --branch main',
  ];

  static flags = {
    ...buildFlags,
    ...allowRefFlag,
    ...serveFlags,
    uncommitted: Flags.boolean({ description: 'Also react to saved, uncommitted edits of the description folders (default: commits only)' }),
    remote: Flags.string({ description: 'Also fetch --branch from this remote every --interval and report what it changed', helpValue: '<name>', dependsOn: ['branch'] }),
    branch: Flags.string({ description: 'The branch of --remote to follow', helpValue: '<branch>', dependsOn: ['remote'] }),
    interval: Flags.string({ description: 'How often --remote is fetched: 30s, 5m, 1h', helpValue: '<duration>', default: '1m' }),
    'fast-forward': Flags.boolean({
      description: 'Move the checked-out branch (it must be --branch) to what --remote brought, with git merge --ff-only, so that the mock serves it',
      dependsOn: ['remote'],
    }),
    'fetch-timeout': Flags.integer({ description: 'Seconds a git fetch may take before it counts as failed', helpValue: '<seconds>', default: 120, min: 1 }),
    format: Flags.string({
      description: 'Reports: text for a terminal, json for tools (one JSON document each), markdown for a pull-request comment',
      options: ['text', 'json', 'markdown'],
      default: 'text',
    }),
    'fail-on': Flags.string({
      description: 'Say when a change of this severity or worse arrives: error (breaking) or warning (possibly breaking too); with --once, exit 1',
      options: ['error', 'warning'],
    }),
    once: Flags.boolean({ description: 'Serve nothing: compare --since with HEAD (or fetch --remote once), print the reports and exit' }),
    'admin-url': Flags.string({
      description: 'Serve nothing: reload the mock serve --admin at this URL instead (POST /__mock/servers/restart); it must serve the same working tree',
      helpValue: '<url>',
    }),
    token: adminFlags.token,
    'management-token': adminFlags['management-token'],
    since: Flags.string({ description: 'With --once: the commit to compare from [default: HEAD~1]', helpValue: '<commit>', dependsOn: ['once'] }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(GitWatch);
    const intervalMs = parseDuration(flags.interval);
    if (intervalMs === undefined || intervalMs < 1000) throw new MockError('MOCK_ERR_FLAG_INVALID', `--interval ${flags.interval}: expected a duration of at least 1s such as 30s, 5m or 1h`, 2);
    const resolved = loadConfig({ configPath: flags.config, flags: flagSettings(flags) });
    if (!flags.once && flags['admin-url'] === undefined && workerCount(resolved) > 1) {
      throw new MockError(
        'MOCK_ERR_FLAG_INVALID',
        'mock git-watch serves in one process: drop --workers (or server.workers), or run mock serve --workers N --admin and point mock git-watch --admin-url at it',
        2,
      );
    }
    const { GitWatcher, checkRemoteBranch, locateRepository } = await import('../drift/git-watch/index.js');
    const { formatReport } = await import('../drift/compare/index.js');
    const served = servedDescriptions(resolved);
    if (served.length === 0)
      throw new MockError('MOCK_ERR_NO_SPEC', 'mock git-watch: no local description is served (URLs are not in git): pass --spec <file>, --graphql-schema <file> or --proto-dir <dir>', 2);
    const repository = await locateRepository(path.dirname(served[0].absolute));
    const descriptions: WatchedDescription[] = served.map(({ absolute, folder, server }) => {
      const relative = (p: string): string => relativeTo(repository.top, p);
      if (relative(absolute).startsWith('..')) throw new MockError('MOCK_ERR_GIT', `${absolute} is outside the working tree ${repository.top}: keep the served descriptions in one repository`, 2);
      return { path: relative(absolute), scope: relative(folder), server };
    });
    const buildOptions = toBuildOptions(resolved, allowedRefs(flags['allow-ref']));
    const { buildPlace } = await import('../../compiler/serving.js');
    const buildDir = path.resolve(resolved.projectDir, buildPlace(buildOptions).dir);
    const format = flags.format as 'text' | 'json' | 'markdown';
    const status = (line: string): boolean => (format === 'text' ? process.stdout : process.stderr).write(`${line}\n`);
    const options: GitWatchOptions = {
      repository,
      descriptions,
      ignored: [relativeTo(repository.top, path.resolve(resolved.projectDir, buildOptions.outDir))],
      referenced: () => referencedFiles(buildDir, repository.top),
      uncommitted: flags.uncommitted,
      failOn: flags['fail-on'] as 'error' | 'warning' | undefined,
      remote: flags.remote === undefined ? undefined : { remote: flags.remote, branch: flags.branch ?? '', intervalMs, timeoutMs: flags['fetch-timeout'] * 1000, fastForward: flags['fast-forward'] },
      severities: resolved.config.contract_diff?.severities,
      allowRefs: allowedRefs(flags['allow-ref']),
      report: (report) => process.stdout.write(formatReport(report, format)),
      status,
      problem: (line) => process.stderr.write(`${line}\n`),
    };

    if (options.remote !== undefined) await checkRemoteBranch(repository.top, options.remote);
    const adminUrl = flags['admin-url'];
    if (adminUrl !== undefined) {
      const client = new AdminClient({ 'admin-url': adminUrl, token: flags.token, 'management-token': flags['management-token'] });
      // asked now, so that a wrong URL or token is said at the start rather than at the first commit
      await client.get('servers/restart/status');
      options.reload = (reason) => restartThroughAdmin(client, reason);
    }

    if (flags.once) {
      const watcher = await GitWatcher.create(options, flags.remote === undefined ? (flags.since ?? 'HEAD~1') : undefined);
      await (flags.remote === undefined ? watcher.check() : watcher.fetch());
      await watcher.close();
      if (watcher.exitCode !== 0) this.exit(watcher.exitCode);
      return;
    }

    const serving = adminUrl === undefined ? await startServing(resolved, { allowRefs: allowedRefs(flags['allow-ref']), say: (line) => this.log(line) }) : undefined;
    if (serving !== undefined) {
      keepServing(serving.logger);
      const http = serving.running.servers.find((server) => server.kind === 'HTTP')?.control;
      if (http !== undefined) options.reload = (reason) => restartInProcess(http, reason);
    }
    let watcher: Watcher;
    try {
      watcher = await GitWatcher.create(options);
    } catch (e) {
      await serving?.close();
      throw e;
    }
    watcher.start();
    const head = watcher.headCommit === undefined ? 'no commit yet' : `HEAD ${watcher.headCommit.slice(0, 7)}`;
    const what = `${flags.uncommitted ? 'commits and saved edits' : 'commits'}${options.remote === undefined ? '' : `, and ${options.remote.remote}/${options.remote.branch} every ${flags.interval}`}`;
    const watching = `git-watch: watching ${repository.top} (${head}) for ${what}`;
    if (serving === undefined) this.log(`${watching}; reloading the mock serve at ${redactUrlCredentials(adminUrl ?? '')}`);
    else {
      const { httpUrl } = await import('../../runtime/index.js');
      this.log([...startLines(serving.running, resolved, httpUrl), watching].join('\n'));
    }
    const signal = await untilSignal();
    serving?.logger.info({ signal }, `shutting down (${signal})`);
    await watcher.close().catch((e: unknown) => process.stderr.write(`${failureLine(e as Error, this.id, this.ctor)}\n`));
    await serving?.close();
    process.exit(0);
  }
}

/** A path as git names it: relative to the top of the working tree (git's real path: symbolic links resolved), with forward slashes. */
const relativeTo = (top: string, location: string): string => {
  const real = existsSync(location) ? realpathSync.native(location) : location;
  return path.relative(top, real).split(path.sep).join('/') || '.';
};

/**
 * The files in the working tree the build read (its manifest's input_files: the descriptions and
 * the targets of their $refs), relative to the top; none before a first build. Files outside the
 * working tree are not in git and are left out.
 */
function referencedFiles(buildDir: string, top: string): string[] {
  let inputs: Record<string, string>;
  try {
    inputs = (JSON.parse(readFileSync(path.join(buildDir, 'manifest.json'), 'utf8')) as { input_files?: Record<string, string> }).input_files ?? {};
  } catch {
    return [];
  }
  return Object.keys(inputs)
    .map((file) => relativeTo(top, path.resolve(buildDir, file)))
    .filter((file) => !file.startsWith('..'));
}

/** The local descriptions the configuration serves, with the folder read with each and the server that serves it (URLs are not in a repository). */
function servedDescriptions(resolved: ResolvedConfig): Array<{ absolute: string; folder: string; server: WatchedDescription['server'] }> {
  const served: Array<{ absolute: string; folder: string; server: WatchedDescription['server'] }> = [];
  for (const spec of resolved.config.specs) if (!isUrl(spec.path)) served.push({ absolute: spec.path, folder: path.dirname(spec.path), server: 'HTTP' });
  // a glob of schema files is served but not compared: compare reads one schema file
  for (const schema of resolved.config.graphql.schema) if (!/[*?[{]/.test(schema)) served.push({ absolute: schema, folder: path.dirname(schema), server: 'GraphQL' });
  const protoDir = protoDirInUse(resolved);
  if (protoDir !== undefined) served.push({ absolute: protoDir, folder: protoDir, server: 'gRPC' });
  return served;
}
