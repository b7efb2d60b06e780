import { statSync } from 'node:fs';
import path from 'node:path';
import { Flags } from '@oclif/core';
import { MockError } from '../../common/errors.js';
import { allowRefFlag, allowedRefs } from '../cli/allow-ref.js';
import { buildFlags, flagSettings, serveFlags } from '../cli/config-flags.js';
import { keepServing } from '../cli/keep-serving.js';
import { MockCommand } from '../cli/mock-command.js';
import { loggingOptions } from '../cli/project-paths.js';
import { startLines } from '../cli/start-lines.js';
import { untilSignal } from '../cli/until-signal.js';
import { workerCount } from '../cli/workers/count.js';
import { sizeYoungGeneration } from '../cli/young-generation.js';
import { loadConfig } from '../config/index.js';
import { closeLogger, createLogger } from '../logging/index.js';
import { pullEvery, upstreamOf, watchWorkspace, WorkspaceServer } from '../sync/index.js';

export default class Sync extends MockCommand {
  static summary =
    'Serve a workspace and keep it in sync: descriptions, mock.yaml, .proto and .graphql files and scripts changed on disk are rebuilt and reloaded (every server: HTTP, WebSocket, GraphQL, gRPC) without dropping a request in flight.';

  static description = [
    "Takes mock serve's flags and serves --workspace-dir (default: the current folder) as mock serve would from there. File-system events (inotify, FSEvents) start a reload: idle, it costs nothing.",
    'A reload reads the configuration again and brings the build up to date while the servers keep answering; then they finish the requests they hold (server.shutdown_timeout_ms), close, and the new ones listen on the same ports (ports left to the system, 0, are kept). What the admin API changed (runtime mocks, chaos, state machines, the clock) is kept; live connections (WebSocket sessions, streams) end and reconnect.',
    'A file that cannot be read or built is said in one line, and the last good state keeps serving. Fixture files are picked up without a reload (core.fixtures.watch).',
    '--pull-interval fetches the remote branch the checked-out branch tracks every so many seconds, fast-forwards to it (never over local changes) and says which files came; the reload follows.',
  ].join('\n\n');

  static examples = [
    '<%= config.bin %> <%= command.id %> --workspace-dir ./api-mocks',
    '<%= config.bin %> <%= command.id %> --workspace-dir ./api-mocks --http-port 8080 --admin',
    '<%= config.bin %> <%= command.id %> --workspace-dir ./api-mocks --pull-interval 60',
  ];

  static flags = {
    ...buildFlags,
    ...allowRefFlag,
    ...serveFlags,
    'workspace-dir': Flags.string({ description: 'The workspace to serve and follow: its mock.yaml, descriptions, .proto and .graphql files (default: the current folder)', helpValue: '<dir>' }),
    'pull-interval': Flags.integer({
      description: 'Seconds between pulls of the remote branch the workspace tracks (git fetch + fast-forward); 0 or absent: no pulls',
      min: 0,
      helpValue: '<seconds>',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Sync);
    const dir = path.resolve(flags['workspace-dir'] ?? '.');
    if (statSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true) {
      throw new MockError('MOCK_ERR_FLAG_INVALID', `--workspace-dir ${flags['workspace-dir']}: no such folder (${dir}); name the folder that holds the workspace's mock.yaml`);
    }
    process.chdir(dir);
    const settings = flagSettings(flags);
    const load = (pins: ReturnType<typeof flagSettings>) => loadConfig({ configPath: flags.config, flags: [...settings, ...pins] });
    const first = load([]);
    if (workerCount(first) > 1) throw new MockError('MOCK_ERR_FLAG_INVALID', 'mock sync serves from one process: drop --workers (server.workers, MOCK_WORKERS), or use mock serve --workers');
    const upstream = (flags['pull-interval'] ?? 0) > 0 ? await upstreamOf(dir).catch((e: Error) => Promise.reject(new MockError('MOCK_ERR_FLAG_INVALID', e.message))) : undefined;
    // what requests and the admin API change outlives every reload (state.store redis keeps it in Redis anyway)
    const { MemoryStores, httpUrl, sharePorts } = await import('../../runtime/index.js');
    // uWS binds with SO_REUSEPORT, as node:http and grpc-js bind with SO_REUSEADDR: the next
    // generation binds the port again while connections the last one closed are in TIME_WAIT
    sharePorts();
    const daemonLogger = createLogger(loggingOptions(first));
    keepServing(daemonLogger);
    const problem = (line: string): void => void process.stderr.write(`${line}\n`);
    const server = await WorkspaceServer.start({
      load,
      allowRefs: allowedRefs(flags['allow-ref']),
      stores: first.config.state.store === 'memory' ? new MemoryStores((message) => daemonLogger.warn(message)) : undefined,
      say: (line) => this.log(line),
      problem,
    });
    const uncap = sizeYoungGeneration(server.current.running);
    this.log(startLines(server.current.running, server.config, httpUrl).join('\n'));
    const stopWatching = watchWorkspace({
      dir,
      ignores: (file) => server.filter.ignores(file),
      skips: (folder) => server.filter.skips(folder),
      changed: (files) => void server.reload(files).catch((e: Error) => problem(`mock sync: ${e.message} (nothing serves now; fix it and save again)`)),
      problem,
    });
    const stopPulling = upstream === undefined ? () => {} : pullEvery({ dir, intervalMs: (flags['pull-interval'] ?? 0) * 1000, say: (line) => this.log(line), problem }, upstream);
    this.log(`mock sync: following ${dir}${upstream === undefined ? '' : `, pulling ${upstream.remote}/${upstream.branch} every ${flags['pull-interval']} s`}`);

    const signal = await untilSignal();
    daemonLogger.info({ signal }, `shutting down (${signal})`);
    stopPulling();
    stopWatching();
    uncap();
    await server.close();
    await closeLogger(daemonLogger);
    process.exit(0);
  }
}
