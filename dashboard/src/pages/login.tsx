import { useState } from 'preact/hooks';
import { signIn } from '../access';

/** Shown when admin.auth is on and nobody is logged in: the admin API's users and roles. */
export function LoginPage() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    try {
      await signIn(username, password);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form class="card login" onSubmit={submit}>
      <h2>Log in</h2>
      <p>Authentication is on: viewers read, editors manage mocks and fixtures, admins change everything.</p>
      <label>
        User <input name="username" autocomplete="username" value={username} onInput={(e) => setUsername((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <label>
        Password <input name="password" type="password" autocomplete="current-password" value={password} onInput={(e) => setPassword((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <button class="primary" type="submit">
        Log in
      </button>
      {error !== undefined && <p class="error">{error}</p>}
    </form>
  );
}
