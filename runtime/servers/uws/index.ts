export { listen, sharePorts } from './listen.js';
export { loadUws, uws, type HttpRequest, type HttpResponse, type TemplatedApp, type us_socket_context_t, type WebSocket, type us_listen_socket, type Uws, type UwsLoad } from './uws.js';
export { UwsListener } from './listener.js';
export { appOf } from './app.js';
