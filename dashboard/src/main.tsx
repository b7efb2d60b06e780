import { render } from 'preact';
import { checkAccess } from './access';
import { App } from './app';
import { startLive } from './live';
import './styles.css';

startLive();
void checkAccess();
render(<App />, document.getElementById('app') as HTMLElement);
