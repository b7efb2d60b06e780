import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
// GraphiQL's styles without its web fonts (360 KB of inlined Roboto and Fira Code): the system's sans-serif and monospace serve
import '@graphiql/react/dist/style.css';
import 'graphiql/src/style.css';
import { createRoot } from 'react-dom/client';
import './page.css';

// The page is served at the GraphQL path itself: queries and mutations go to it over HTTP,
// subscriptions to the same path over graphql-transport-ws (the server mounts both there).
const path = location.pathname;
const socket = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
const fetcher = createGraphiQLFetcher({ url: path, subscriptionUrl: socket });

const root = document.getElementById('graphiql');
if (root !== null) createRoot(root).render(<GraphiQL fetcher={fetcher} defaultEditorToolsVisibility={true} />);
