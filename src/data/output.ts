import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MockError } from '../../common/errors.js';
import { displayPath } from '../config/display-path.js';

/**
 * Writes `text` to `file` atomically: into a temporary file beside it, then renamed over it,
 * so a reader never sees half a file and a failure leaves the old one as it was.
 */
export function writeAtomically(file: string, text: string): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch (e) {
    rmSync(temporary, { force: true });
    const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new MockError('MOCK_ERR_FLAG_INVALID', `--output ${displayPath(file)}: cannot write (${reason}; pass a writable file path)`);
  }
}

/** To --output, or to stdout (waiting until it has taken everything, so a pipe gets it all). */
export async function emit(text: string, output: string | undefined): Promise<void> {
  if (output !== undefined) {
    writeAtomically(output, text);
    return;
  }
  await new Promise<void>((resolve, reject) =>
    // a reader that stops early (`| head`) is not an error
    process.stdout.write(text, (e) => (e && (e as NodeJS.ErrnoException).code !== 'EPIPE' ? reject(e) : resolve())),
  );
}
