// Plugin modules for tests: the ABI's boilerplate around an action body in WAT, built with the
// project's own build (scripts/plugin-wasm.js: wat2wasm and the manifest section).
import { pluginWasm } from '../../scripts/plugin-wasm.js';

const ABI = `
  (func (export "mock_abi_version") (result i32) (i32.const 1))
  (func (export "mock_alloc") (param $size i32) (result i32) (i32.const 4096))`;

/** A length-prefixed constant at `offset`, as an action answers it. */
export function constant(offset, text) {
  const bytes = Buffer.from(text);
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32LE(bytes.length);
  return `(data (i32.const ${offset}) "${[...Buffer.concat([prefix, bytes])].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('')}")`;
}

/**
 * A module named `name` whose actions (`{action: kind}`) are defined by `body` (WAT module fields);
 * `imports` and `memory` go first. Test cases optional.
 */
export function testPlugin(name, actions, body, { imports = '', memory = '(memory (export "memory") 1 16)', version = '1.0.0', tests } = {}) {
  const manifest = { name, version, abi: 1, actions: Object.fromEntries(Object.entries(actions).map(([action, kind]) => [action, { kind }])), ...(tests ? { tests } : {}) };
  return pluginWasm(`${name}.wat`, `(module ${imports} ${memory} ${ABI} ${body})`, manifest);
}

/** Template functions that misbehave: spin forever, eat memory, answer garbage; `ok` answers "fine". */
export const misbehaving = (name) =>
  testPlugin(
    name,
    { spin: 'template_function', hog: 'template_function', garbage: 'template_function', ok: 'template_function' },
    `${constant(128, '"fine"')} ${constant(256, 'this is not JSON')}
    (func (export "ok") (param i32 i32) (result i32) (i32.const 128))
    (func (export "garbage") (param i32 i32) (result i32) (i32.const 256))
    (func (export "spin") (param i32 i32) (result i32) (loop $forever (br $forever)) (unreachable))
    (func (export "hog") (param i32 i32) (result i32)
      (loop $more (br_if $more (i32.ne (memory.grow (i32.const 16)) (i32.const -1))))
      (unreachable))`,
    { memory: '(memory (export "memory") 1 512)' },
  );

/**
 * A data source that reads `secret.json` from its first preopened directory through WASI (fd 3) and
 * answers its bytes, or {"errno": "nn"} when WASI refuses; `escape` tries ../../../../etc/hostname.
 */
export const fileReader = (name) =>
  testPlugin(
    name,
    { read: 'data_source', escape: 'data_source' },
    `(data (i32.const 512) "secret.json") (data (i32.const 600) "../../../../etc/hostname")
    ${constant(1024, '{"errno":"')}
    (func $read (param $path i32) (param $len i32) (result i32)
      (local $err i32)
      (local.set $err (call $path_open (i32.const 3) (i32.const 0) (local.get $path) (local.get $len) (i32.const 0) (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 256)))
      (if (i32.ne (local.get $err) (i32.const 0))
        (then
          ;; {"errno":"NN"}: two digits, a quote and the brace after the 10 bytes of the prefix
          (i32.store8 (i32.const 1038) (i32.add (i32.const 48) (i32.div_u (local.get $err) (i32.const 10))))
          (i32.store8 (i32.const 1039) (i32.add (i32.const 48) (i32.rem_u (local.get $err) (i32.const 10))))
          (i32.store8 (i32.const 1040) (i32.const 34))
          (i32.store8 (i32.const 1041) (i32.const 125))
          (i32.store (i32.const 1024) (i32.const 14))
          (return (i32.const 1024))))
      (i32.store (i32.const 264) (i32.const 2052))
      (i32.store (i32.const 268) (i32.const 1024))
      (drop (call $fd_read (i32.load (i32.const 256)) (i32.const 264) (i32.const 1) (i32.const 272)))
      (i32.store (i32.const 2048) (i32.load (i32.const 272)))
      (i32.const 2048))
    (func (export "read") (param i32 i32) (result i32) (call $read (i32.const 512) (i32.const 11)))
    (func (export "escape") (param i32 i32) (result i32) (call $read (i32.const 600) (i32.const 24)))`,
    {
      imports: `(import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
        (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))`,
    },
  );

/** A module that wants a network function from the host. */
export const networked = () =>
  testPlugin('fetcher', { get: 'data_source' }, `(func (export "get") (param i32 i32) (result i32) (call $http_get (i32.const 0) (i32.const 0)))`, {
    imports: '(import "env" "http_get" (func $http_get (param i32 i32) (result i32)))',
  });

/** A template function that writes PLUGIN-WAS-HERE to its standard output (WASI fd 1), then answers "done". */
export const chatty = () =>
  testPlugin(
    'chatty',
    { say: 'template_function' },
    `(data (i32.const 512) "PLUGIN-WAS-HERE\\n") ${constant(128, '"done"')}
    (func (export "say") (param i32 i32) (result i32)
      (i32.store (i32.const 256) (i32.const 512))
      (i32.store (i32.const 260) (i32.const 16))
      (drop (call $fd_write (i32.const 1) (i32.const 256) (i32.const 1) (i32.const 264)))
      (drop (call $fd_write (i32.const 2) (i32.const 256) (i32.const 1) (i32.const 264)))
      (i32.const 128))`,
    { imports: '(import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))' },
  );
