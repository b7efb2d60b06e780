import { useCallback, useEffect, useState } from 'preact/hooks';
import { call, get } from './api';

export interface Resource<T> {
  data: T | undefined;
  error: string | undefined;
  reload(): void;
}

/** GETs an endpoint on mount, every `everyMs` while mounted when given, and whenever `refreshKey` changes. */
export function useResource<T>(endpoint: string, everyMs?: number, refreshKey?: unknown): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    const load = (): void => {
      get<T>(endpoint).then(
        (value) => live && (setData(value), setError(undefined)),
        (e: Error) => live && setError(e.message),
      );
    };
    load();
    const timer = everyMs === undefined ? undefined : setInterval(load, everyMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [endpoint, everyMs, tick, refreshKey]);
  return { data, error, reload };
}

export interface Action {
  busy: boolean;
  error: string | undefined;
  done: string | undefined;
  /** Runs a write; its error (the API's sentence) or `message` shows beside the control. */
  run<T>(method: string, endpoint: string, body?: unknown, message?: string): Promise<T | undefined>;
}

export function useAction(after?: () => void): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  const run = async <T,>(method: string, endpoint: string, body?: unknown, message?: string): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      const result = await call<T>(method, endpoint, body);
      setDone(message ?? 'Saved');
      after?.();
      return result;
    } catch (e) {
      setError((e as Error).message);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, done, run };
}

/** Runs a write for an editor: resolves with the API's error sentence, or undefined (after `after`) when it worked. */
export async function attempt(work: () => Promise<unknown>, after?: () => void): Promise<string | undefined> {
  try {
    await work();
    after?.();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
