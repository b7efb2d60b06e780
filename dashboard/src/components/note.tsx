import type { Action } from '../resource';

/** What the last write said: the API's error, or that it worked. */
export function Note({ action }: { action: Action }) {
  if (action.error !== undefined) return <span class="error">{action.error}</span>;
  if (action.done !== undefined) return <span class="ok">{action.done}</span>;
  return null;
}
