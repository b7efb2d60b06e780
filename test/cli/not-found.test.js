import t from 'tap';
import { failsWith, runCli } from './fixtures/run-cli.js';

t.test('an unknown command suggests the closest one and exits non-zero', async (t) => {
  failsWith(t, runCli(['serv']), 'mock: serv is not a mock command; did you mean serve? (see mock --help)', 127);
  failsWith(t, runCli(['config', 'valdate']), 'mock: config valdate is not a mock command; did you mean config validate? (see mock --help)', 127);
  failsWith(t, runCli(['xyzzy']), 'mock: xyzzy is not a mock command (see mock --help)', 127);
});

t.test('words after a command without arguments are named', async (t) => {
  failsWith(t, runCli(['serve', 'api.yaml']), 'mock: serve takes no arguments, got: api.yaml (see mock serve --help)', 2);
});
