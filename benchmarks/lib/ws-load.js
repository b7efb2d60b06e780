// One WebSocket load process of benchmarks/websocket.js (lib/ws-client.js's EchoLoad), run as a child
// so it can be pinned to its own core. Protocol, one JSON line each way:
//   argv[2]  { host, port, path, connections, window, payloadSize, warmup, duration, serverPid }
//   stdout   { ready: true } once every connection is upgraded; then waits for "go" on stdin, so
//            that several load processes measure the same stretch of time
//   stdout   { messages, seconds, histogram (hdr, compressed base64), wrong, errors, problems,
//              clientCpu, serverCpu }: the CPU times are fractions of one core over the measured
//              seconds (serverCpu from /proc/<serverPid>/stat; null where there is no /proc)
// Exits 1 when a connection cannot be opened (the reason on stderr).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import * as hdr from 'hdr-histogram-js';
import { EchoLoad } from './ws-client.js';

const options = JSON.parse(process.argv[2]);
const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** Seconds of CPU (user + system) the process has used so far, or null. */
function serverSeconds() {
  try {
    // the fields after the command name, which may itself hold spaces and parentheses
    const fields = readFileSync(`/proc/${options.serverPid}/stat`, 'latin1').split(') ').at(-1).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond; // utime, stime (fields 14 and 15)
  } catch {
    return null;
  }
}

const clientSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const send = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

const load = new EchoLoad(options);
try {
  await load.open();
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
send({ ready: true });
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once('line', resolve));
lines.close();

load.start();
await sleep(options.warmup);
const before = { at: performance.now(), client: clientSeconds(), server: serverSeconds() };
load.measure(true);
await sleep(options.duration);
load.measure(false);
const after = { at: performance.now(), client: clientSeconds(), server: serverSeconds() };
load.stop();

const seconds = (after.at - before.at) / 1000;
send({
  messages: load.messages,
  seconds,
  histogram: hdr.encodeIntoCompressedBase64(load.histogram),
  wrong: load.wrong,
  errors: load.errors,
  problems: load.problems,
  clientCpu: (after.client - before.client) / seconds,
  serverCpu: before.server === null || after.server === null ? null : (after.server - before.server) / seconds,
});
