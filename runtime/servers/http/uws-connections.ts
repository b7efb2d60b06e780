import { readableAddress } from '../../chain/exchange/index.js';
import type { HttpResponse } from '../uws/index.js';

const latin1 = new TextDecoder('latin1');

/**
 * The open connections of a uWS app (uWS's `filter` hook tells each open and close) and, while
 * every connection opened since the count was last zero came from one address, that address.
 *
 * Reading a client's address costs an ArrayBuffer allocation in uWS (about a microsecond, a fifth
 * of what a whole request costs the library). While the connections share one address, a request
 * on any of them is known to come from it without asking; once another address connects, every
 * request reads its own until all connections have closed. uWS cannot name the address of a
 * closing connection, so the shortcut is only regained at zero.
 */
export class UwsConnections {
  private count = 0;
  private sole: string | null = null;
  private mixed = false;

  get open(): number {
    return this.count;
  }

  /** uWS `filter` callback: +1 on open, -1 on close. */
  readonly onChange = (res: HttpResponse, change: number): void => {
    if (change < 0) {
      this.count = Math.max(0, this.count - 1);
      if (this.count === 0) {
        this.sole = null;
        this.mixed = false;
      }
      return;
    }
    const address = readableAddress(latin1.decode(res.getRemoteAddressAsText()));
    if (this.count === 0) this.sole = address;
    else if (address !== this.sole) this.mixed = true;
    this.count++;
  };

  /** Hot path: the client of a request being handled (raw text when it has to be read). */
  clientOf(res: HttpResponse): ArrayBuffer | string {
    return this.mixed || this.sole === null ? res.getRemoteAddressAsText() : this.sole;
  }
}
