import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { access, signOut } from './access';
import { streamMode } from './live';
import { useObservable } from './observable';
import { ChaosPage } from './pages/chaos';
import { ConfigPage } from './pages/config';
import { FixturesPage } from './pages/fixtures';
import { LogPage } from './pages/log';
import { LoginPage } from './pages/login';
import { MocksPage } from './pages/mocks';
import { OverviewPage } from './pages/overview';
import { RoutesPage } from './pages/routes';
import { StatePage } from './pages/state';
import { UnmatchedPage } from './pages/unmatched';

const PAGES: Array<[string, string, FunctionComponent]> = [
  ['overview', 'Overview', OverviewPage],
  ['routes', 'Routes', RoutesPage],
  ['log', 'Live log', LogPage],
  ['unmatched', 'Unmatched', UnmatchedPage],
  ['mocks', 'Mocks & overrides', MocksPage],
  ['chaos', 'Chaos', ChaosPage],
  ['config', 'Config', ConfigPage],
  ['fixtures', 'Fixtures', FixturesPage],
  ['state', 'State & time', StatePage],
];

/** The page named by the URL's fragment (`#log`): a fragment needs no server route under any mount path. */
function useHashPage(): string {
  const read = (): string => location.hash.slice(1) || 'overview';
  const [page, setPage] = useState(read);
  useEffect(() => {
    const onHash = (): void => setPage(read());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  return page;
}

export function App() {
  const state = useObservable(access);
  const mode = useObservable(streamMode);
  const page = useHashPage();
  const [, , Page] = PAGES.find(([id]) => id === page) ?? PAGES[0];
  const user = state.auth === 'on' ? state.user : null;
  return (
    <div class="shell">
      <nav>
        <h1>mock</h1>
        {PAGES.map(([id, label]) => (
          <a key={id} href={`#${id}`} class={id === page ? 'active' : ''}>
            {label}
          </a>
        ))}
        <div class="who">
          <span class={`stream ${mode}`} title="live feed">
            {mode === 'ws' ? 'live (WebSocket)' : mode === 'sse' ? 'live (SSE)' : mode}
          </span>
          {state.auth === 'off' && <span>no login (auth off)</span>}
          {user !== null && (
            <span>
              {user.username} ({user.role}) <button onClick={() => void signOut()}>Log out</button>
            </span>
          )}
        </div>
      </nav>
      <main>{state.auth === 'on' && user === null ? <LoginPage /> : <Page />}</main>
    </div>
  );
}
