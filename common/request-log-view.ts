import type { RequestLogEntryJson } from './request-log.js';

/**
 * How the clients of the request log (the web dashboard, `mock tui`) show what an entry's protocol
 * adds: one route column and one list of fields for every protocol, written once.
 */

type Entry = Pick<RequestLogEntryJson, 'path' | 'route' | 'graphql' | 'grpc' | 'websocket' | 'callback'>;

/** `/library.v1.Library/GetBook` → ['library.v1.Library', 'GetBook']; undefined for another shape (a bridge's REST path). */
function serviceMethod(path: string): [string, string] | undefined {
  const match = /^\/([^/]+)\/([^/]+)$/.exec(path);
  return match === null ? undefined : [match[1], match[2]];
}

/** A gRPC call's `/<package.Service>/<Method>`: its route's path when it has one (HTTP bridge calls come by a REST path), else the path. */
function grpcPath(entry: Entry): string {
  return entry.route?.startsWith('POST /') ? entry.route.slice(5) : entry.path;
}

/**
 * What answered, for the log's route column: HTTP's route (`unmatched` when none), a GraphQL
 * operation (`query GetUser`), a gRPC method (`library.v1.Library/GetBook`), a WebSocket route
 * (`WS /chat/{room}`).
 */
export function routeLabel(entry: Entry): string {
  if (entry.graphql !== undefined) return `${entry.graphql.operation_type} ${entry.graphql.operation_name ?? '(anonymous)'}`;
  if (entry.grpc !== undefined) return grpcPath(entry).slice(1);
  if (entry.callback !== undefined) return `${entry.callback.kind} ${entry.callback.name}`;
  if (entry.route === null) return 'unmatched';
  return entry.route ?? '';
}

/** The fields an entry's protocol adds, as label and text, in reading order; none for HTTP. */
export function protocolFields(entry: Entry): Array<[label: string, text: string]> {
  const { graphql, grpc, websocket, callback } = entry;
  if (callback !== undefined) {
    const fields: Array<[string, string]> = [
      [callback.kind, callback.name],
      ['sent to', callback.url],
      ['outcome', `${callback.outcome} after ${callback.attempts} attempt${callback.attempts === 1 ? '' : 's'}`],
    ];
    if (callback.trigger !== undefined) fields.push(['after', callback.trigger]);
    if (callback.via !== undefined) fields.push(['sent by', callback.via === 'admin' ? 'the admin API' : 'a schedule']);
    return fields;
  }
  if (graphql !== undefined) {
    const fields: Array<[string, string]> = [
      ['operation type', graphql.operation_type],
      ['operation name', graphql.operation_name ?? '(anonymous)'],
    ];
    if (graphql.events !== undefined) fields.push(['events sent', String(graphql.events)]);
    return fields;
  }
  if (grpc !== undefined) {
    const path = grpcPath(entry);
    const [service, method] = serviceMethod(path) ?? [path, '–'];
    const fields: Array<[string, string]> = [
      ['service', service],
      ['method', method],
      ['grpc status', grpc.status],
      ['messages', `${grpc.messages_in} in, ${grpc.messages_out} out`],
    ];
    if (grpc.fixture !== undefined) fields.push(['fixture', grpc.fixture]);
    return fields;
  }
  if (websocket !== undefined) {
    return [
      ['path', entry.path],
      ['messages', `${websocket.messages_in} in, ${websocket.messages_out} out`],
      ['closed', `${websocket.close_code}${websocket.close_reason === '' ? '' : ` ${websocket.close_reason}`}`],
      ['played', websocket.played],
    ];
  }
  return [];
}

/** Which protocol an entry is of. */
export function protocolOf(entry: Entry): 'http' | 'graphql' | 'grpc' | 'websocket' {
  return entry.graphql !== undefined ? 'graphql' : entry.grpc !== undefined ? 'grpc' : entry.websocket !== undefined ? 'websocket' : 'http';
}
