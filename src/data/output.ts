import { MockError } from '../../common/errors.js';
import { writeWhole } from '../../common/write-whole.js';
import { displayPath } from '../config/display-path.js';

/** Writes `text` to `file` whole or not at all (common/write-whole.ts); a failure names the flag. */
export function writeAtomically(file: string, text: string): void {
  try {
    writeWhole(file, text);
  } catch (e) {
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
