import { protocolFields, protocolOf } from '../../../common/request-log-view.js';
import type { LogEntry } from '../types';

/** The log detail's section of what a GraphQL operation, a gRPC call or a WebSocket session adds to its entry. */
export function ProtocolFields({ entry }: { entry: LogEntry }) {
  const fields = protocolFields(entry);
  if (fields.length === 0) return null;
  const protocol = protocolOf(entry);
  return (
    <section data-testid="protocol-fields">
      <h4>{protocol === 'graphql' ? 'GraphQL operation' : protocol === 'grpc' ? 'gRPC call' : 'WebSocket session'}</h4>
      <dl>
        {fields.map(([label, text]) => [<dt key={`t${label}`}>{label}</dt>, <dd key={`d${label}`}>{text}</dd>])}
      </dl>
    </section>
  );
}
