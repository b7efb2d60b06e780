import { ApiError, get, login, logout, whenSessionLost, type Role } from './api';
import { Observable } from './observable';

/** Who uses the page: auth off (anyone may write), a logged-in role, or a login needed. */
export type Access = { auth: 'unknown' } | { auth: 'off' } | { auth: 'on'; user: { username: string; role: Role } | null };

export const access = new Observable<Access>({ auth: 'unknown' });
whenSessionLost(() => access.set({ auth: 'on', user: null }));

/** Asks the API who we are: 404 "authentication is disabled" means no login; 401 means one is needed. */
export async function checkAccess(): Promise<void> {
  try {
    const me = await get<{ username: string; role: Role }>('auth/me');
    access.set({ auth: 'on', user: me });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) access.set({ auth: 'off' });
    else access.set({ auth: 'on', user: null });
  }
}

export async function signIn(username: string, password: string): Promise<void> {
  const session = await login(username, password);
  access.set({ auth: 'on', user: session.user });
}

export async function signOut(): Promise<void> {
  await logout();
  access.set({ auth: 'on', user: null });
}

/**
 * The role a write needs (runtime/control/auth/permissions.ts): editors manage mocks, overrides,
 * fixtures, smoke runs, recordings and states; everything else is the admin's. The API decides;
 * this only greys out what it would refuse.
 */
export function mayWrite(state: Access, needs: 'editor' | 'admin'): boolean {
  if (state.auth === 'off') return true;
  if (state.auth === 'unknown' || state.user === null) return false;
  return state.user.role === 'admin' || (needs === 'editor' && state.user.role === 'editor');
}
