import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactElement } from 'react';
import { Box, useApp, useInput, useStdout, type Key } from 'ink';
import { logMatcher, parseLogFilter } from '../../common/log-filter.js';
import type { AdminApi } from './admin-api.js';
import type { LiveStore } from './store.js';
import type { LogEntry, Loaded } from './types.js';
import { ChaosView } from './views/chaos.js';
import { HeaderLine, HelpBar, HelpView, TABS, TabBar } from './views/chrome.js';
import { FixturesView } from './views/fixtures.js';
import { h, line } from './views/line.js';
import { LogView } from './views/log.js';
import { OverviewView } from './views/overview.js';
import { RoutesView } from './views/routes.js';
import { UnmatchedView } from './views/unmatched.js';

/** What the tabs fetch: AdminApi, or a stand-in in tests. */
export type TabApi = Pick<AdminApi, 'routes' | 'unmatched' | 'chaos' | 'fixtures' | 'applyProfile' | 'resetChaos'>;

export interface AppProps {
  api: TabApi;
  store: LiveStore;
  /** The admin URL as shown (credentials redacted). */
  adminUrl: string;
  /** The terminal's size; default: stdout's, followed on 'resize'. */
  size?: { columns: number; rows: number };
  /** How often the shown tab fetches its data again. */
  refreshMs?: number;
  initialTab?: number;
}

type TabData = {
  Routes: Loaded<Awaited<ReturnType<TabApi['routes']>>>;
  Unmatched: Loaded<Awaited<ReturnType<TabApi['unmatched']>>>;
  Chaos: Loaded<Awaited<ReturnType<TabApi['chaos']>>>;
  Fixtures: Loaded<Awaited<ReturnType<TabApi['fixtures']>>>;
};
type Fetched = keyof TabData;

const MIN_COLUMNS = 40;
const MIN_ROWS = 8;

/** The terminal's size, following 'resize'. */
function useTerminalSize(fixed: AppProps['size']): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => fixed ?? { columns: stdout.columns || 80, rows: stdout.rows || 24 };
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed) {
      setSize(fixed);
      return;
    }
    const resized = () => setSize({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
    stdout.on('resize', resized);
    return () => {
      stdout.off('resize', resized);
    };
  }, [stdout, fixed?.columns, fixed?.rows]);
  return size;
}

/** The rows a list tab shows, for selection bounds. */
function countOf(tab: Fetched, data: TabData): number {
  if (tab === 'Routes') return data.Routes.data?.rows.length ?? 0;
  if (tab === 'Unmatched') return data.Unmatched.data?.length ?? 0;
  if (tab === 'Chaos') return data.Chaos.data?.profiles.length ?? 0;
  return data.Fixtures.data?.items.length ?? 0;
}

/** The terminal dashboard: a header, the tab bar, the current tab and the help bar, one frame a line shorter than the terminal. */
export function App({ api, store, adminUrl, size: fixedSize, refreshMs = 2000, initialTab = 0 }: AppProps): ReactElement {
  const { exit } = useApp();
  const live = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const { columns, rows } = useTerminalSize(fixedSize);
  const [tab, setTabState] = useState(initialTab);
  const tabRef = useRef(tab);
  const setTab = (next: number) => {
    tabRef.current = next;
    setTabState(next);
  };
  const [help, setHelp] = useState(false);
  const [selected, setSelectedState] = useState<Record<Fetched, number>>({ Routes: 0, Unmatched: 0, Chaos: 0, Fixtures: 0 });
  // read by keys that arrive in the same chunk as the moves before them (jj⏎)
  const selectedRef = useRef(selected);
  const setSelected = (next: Record<Fetched, number>) => {
    selectedRef.current = next;
    setSelectedState(next);
  };
  const [data, setData] = useState<TabData>({ Routes: {}, Unmatched: {}, Chaos: {}, Fixtures: {} });
  const [notice, setNotice] = useState<{ text: string; failed: boolean } | undefined>();
  const [tick, setTick] = useState(0);
  // the log: frozen while paused or scrolled up, so the lines read stay put
  const [paused, setPaused] = useState(false);
  const [offset, setOffset] = useState(0);
  const [frozen, setFrozen] = useState<{ logs: readonly LogEntry[]; received: number } | undefined>();
  // the log's `/` filter: its words, and whether keys go to it (refs: keys of one chunk read them before a redraw)
  const [filter, setFilterState] = useState({ text: '', editing: false });
  const filterRef = useRef(filter);
  const setFilter = (next: { text: string; editing: boolean }) => {
    if (next.text !== filterRef.current.text) setOffset(0);
    filterRef.current = next;
    setFilterState(next);
  };
  const matches = useMemo(() => logMatcher(parseLogFilter(filter.text)), [filter.text]);
  const logsOf = (all: readonly LogEntry[]): readonly LogEntry[] => (matches === undefined ? all : all.filter(matches));

  const name = TABS[tab];
  const fetched: Fetched | undefined = name === 'Overview' || name === 'Log' ? undefined : name;

  // the shown tab fetches its data on entry, every refreshMs, and on r
  const generation = useRef(0);
  useEffect(() => {
    if (fetched === undefined) return;
    let cancelled = false;
    const load = async () => {
      const mine = ++generation.current;
      const call: () => Promise<unknown> =
        fetched === 'Routes' ? api.routes.bind(api) : fetched === 'Unmatched' ? () => api.unmatched() : fetched === 'Chaos' ? api.chaos.bind(api) : api.fixtures.bind(api);
      let result: Loaded<unknown>;
      try {
        result = { data: await call(), at: Date.now() };
      } catch (e) {
        result = { error: (e as Error).message, at: Date.now() };
      }
      if (cancelled || mine !== generation.current) return;
      // a failed refresh keeps the last data shown, with the error above it
      setData((before) => ({ ...before, [fetched]: result.data === undefined ? { ...before[fetched], error: result.error } : result }));
    };
    void load();
    const timer = setInterval(() => void load(), refreshMs);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [fetched, tick, api, refreshMs]);

  const body = Math.max(0, rows - 1 - 3);
  const move = (delta: number) => {
    const name = TABS[tabRef.current];
    const fetched: Fetched | undefined = name === 'Overview' || name === 'Log' ? undefined : name;
    if (name === 'Log') {
      const logs = logsOf(frozen?.logs ?? live.logs);
      const next = Math.max(0, Math.min(Math.max(0, logs.length - 1), offset - delta));
      if (next > 0 && frozen === undefined) setFrozen({ logs: live.logs, received: live.received });
      if (next === 0 && !paused) setFrozen(undefined);
      setOffset(next);
      return;
    }
    if (fetched === undefined) return;
    const count = countOf(fetched, data);
    const before = selectedRef.current;
    setSelected({ ...before, [fetched]: Math.max(0, Math.min(count - 1, before[fetched] + delta)) });
  };

  const act = async (what: () => Promise<string>) => {
    try {
      setNotice({ text: await what(), failed: false });
    } catch (e) {
      setNotice({ text: (e as Error).message, failed: true });
    }
    setTick((n) => n + 1);
  };

  const onKey = (input: string, key: Key) => {
    const name = TABS[tabRef.current];
    const typing = filterRef.current;
    if (typing.editing && !(key.ctrl && input === 'c')) {
      if (key.escape) setFilter({ text: '', editing: false });
      else if (key.return) setFilter({ ...typing, editing: false });
      else if (key.backspace || key.delete) setFilter({ ...typing, text: typing.text.slice(0, -1) });
      else if (input !== '' && !key.ctrl && !key.meta) setFilter({ ...typing, text: typing.text + input });
      return;
    }
      if (input === 'q' || (key.ctrl && input === 'c')) {
        exit();
        return;
      }
      if (input === '?') {
        setHelp((on) => !on);
        return;
      }
      if (/^[1-6]$/.test(input)) {
        setTab(Number(input) - 1);
        setHelp(false);
        return;
      }
      if (key.tab || key.rightArrow || key.leftArrow) {
        const back = (key.tab && key.shift) || key.leftArrow;
        setTab((tabRef.current + (back ? TABS.length - 1 : 1)) % TABS.length);
        setHelp(false);
        return;
      }
      if (key.upArrow || input === 'k') return move(-1);
      if (key.downArrow || input === 'j') return move(1);
      if (key.pageUp) return move(-Math.max(1, body - 3));
      if (key.pageDown) return move(Math.max(1, body - 3));
      if (input === 'g') return move(-1_000_000);
      if (input === 'G') return move(1_000_000);
      if (input === 'r') {
        setTick((n) => n + 1);
        return;
      }
      if (name === 'Log' && input === '/') {
        setFilter({ ...filterRef.current, editing: true });
        return;
      }
      if (name === 'Log' && key.escape) {
        setFilter({ text: '', editing: false });
        return;
      }
      if (name === 'Log' && input === ' ') {
        if (paused) {
          setPaused(false);
          setOffset(0);
          setFrozen(undefined);
        } else {
          setPaused(true);
          setFrozen((f) => f ?? { logs: live.logs, received: live.received });
        }
        return;
      }
      if (name === 'Chaos' && key.return) {
        const profile = data.Chaos.data?.profiles[selectedRef.current.Chaos];
        if (profile) void act(async () => `applied ${(await api.applyProfile(profile.name)).applied ?? profile.name}`);
        return;
      }
      if (name === 'Chaos' && input === 'x') void act(async () => (await api.resetChaos(), 'chaos reset to the settings of the start, latency off'));
  };
  // one handler for the app's life, calling the newest onKey: ink swaps a changed handler in an
  // effect, after the frame, and a key read before that would meet the data of an older frame
  const onKeyRef = useRef(onKey);
  onKeyRef.current = onKey;
  const handler = useCallback((input: string, key: Key) => {
    // keys typed faster than the terminal is read come in one chunk ("jj\r"), which ink hands over
    // whole: plain characters are taken one by one
    if (input.length > 1 && !key.ctrl && !key.meta && /^[\x20-\x7e\r]+$/.test(input)) {
      for (const char of input) onKeyRef.current(char === '\r' ? '' : char, { ...key, return: char === '\r', shift: /[A-Z]/.test(char) });
    } else onKeyRef.current(input, key);
  }, []);
  useInput(handler);

  if (columns < MIN_COLUMNS || rows < MIN_ROWS) {
    return h(Box, { width: columns, height: 1 }, line('small', [`terminal too small (${columns}×${rows}): make it at least ${MIN_COLUMNS}×${MIN_ROWS}`], columns));
  }
  const width = columns;
  let view: ReactElement;
  if (help) view = HelpView({ width, height: body });
  else if (name === 'Overview') view = OverviewView({ samples: live.samples, width, height: body });
  else if (name === 'Log') {
    const all = frozen?.logs ?? live.logs;
    view = LogView({ entries: logsOf(all), paused, pending: frozen ? live.received - frozen.received : 0, offset, width, height: body, skipped: live.skipped, filter: { ...filter, total: all.length } });
  } else if (name === 'Routes') view = RoutesView({ loaded: data.Routes, selected: selected.Routes, width, height: body });
  else if (name === 'Unmatched') view = UnmatchedView({ loaded: data.Unmatched, selected: selected.Unmatched, width, height: body });
  else if (name === 'Chaos') view = ChaosView({ loaded: data.Chaos, selected: selected.Chaos, notice, width, height: body });
  else view = FixturesView({ loaded: data.Fixtures, selected: selected.Fixtures, width, height: body });
  return h(
    Box,
    { flexDirection: 'column', width, height: rows - 1 },
    HeaderLine({ adminUrl, stream: live.stream, width, height: rows - 1 }),
    TabBar({ current: tab, width }),
    view,
    HelpBar({ tab: name, width }),
  );
}
