// Turns a plugin's WAT text and manifest into its module: wat2wasm (the wabt package, compiled to
// WebAssembly, so it installs from the npm registry alone) then the manifest appended as the
// `mock.plugin` custom section (docs/plugins.md, "ABI"). Deterministic: same inputs, same bytes.
import wabtInit from 'wabt';

const wabt = await wabtInit();

const leb = (n) => {
  const out = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};

/** The module of `wat` (named `name` in wabt's messages) carrying `manifest`, as bytes. */
export function pluginWasm(name, wat, manifest) {
  const parsed = wabt.parseWat(name, wat);
  try {
    const { buffer } = parsed.toBinary({});
    const sectionName = Buffer.from('mock.plugin');
    const payload = Buffer.from(JSON.stringify(manifest));
    const content = Buffer.concat([Buffer.from(leb(sectionName.length)), sectionName, payload]);
    return Buffer.concat([Buffer.from(buffer), Buffer.from([0, ...leb(content.length)]), content]);
  } finally {
    parsed.destroy();
  }
}
