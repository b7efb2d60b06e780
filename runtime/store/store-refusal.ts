import type { StoreName } from './store.js';

/**
 * A write a store's budget does not allow: one entry larger than the whole budget (`full` false),
 * or, in a store that refuses past its budget, an entry that does not fit beside the others. The
 * component that wrote answers with its own catalogue error.
 */
export class StoreRefusal extends Error {
  constructor(
    readonly store: StoreName,
    readonly key: string,
    readonly bytes: number,
    readonly maxBytes: number,
    readonly setting: string,
    readonly full: boolean,
  ) {
    super(
      full
        ? `${store}: ${bytes} more bytes do not fit in ${setting} (${maxBytes} bytes); delete some or raise ${setting}`
        : `${store}: an entry of ${bytes} bytes is larger than the whole store (${setting}, ${maxBytes} bytes)`,
    );
  }
}
