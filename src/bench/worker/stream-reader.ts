// One streamed answer (a sequential media type) read under load: its body split into items as the
// bytes arrive, with the splitter the conformance probes use, counting the items and timing the
// first complete one; every item is offered to the recorder's validation sample.
import { StringDecoder } from 'node:string_decoder';
import { framingOf, ItemSplitter } from '../../../common/sequence-items.js';
import type { Recorder } from './recorder.js';

export class StreamReader {
  items = 0;
  /** performance.now() when the first item was complete; 0 before. */
  firstItemAt = 0;
  /** performance.now() of the last bytes: --timeout is the longest silence of a stream, not its length. */
  lastDataAt = performance.now();
  private readonly decoder = new StringDecoder('utf8');
  private readonly splitter: ItemSplitter;

  constructor(
    private readonly recorder: Recorder,
    private readonly operation: number,
    readonly status: number,
    readonly contentType: string,
  ) {
    this.splitter = new ItemSplitter(framingOf(contentType) ?? 'jsonl', contentType);
  }

  data(chunk: Buffer): void {
    this.lastDataAt = performance.now();
    this.take(this.splitter.push(this.decoder.write(chunk)));
  }

  /** The answer ended: a last JSON text without its LF is an item too. */
  end(): void {
    this.take(this.splitter.push(this.decoder.end()));
    this.take(this.splitter.end());
  }

  private take(items: string[]): void {
    if (items.length === 0) return;
    if (this.items === 0) this.firstItemAt = performance.now();
    this.items += items.length;
    for (const item of items) this.recorder.streamItem(this.operation, this.status, this.contentType, item);
  }
}
