import { AdminError, ok } from '../envelope.js';
import type { AdminRoute } from '../router.js';

/** The gRPC server: its address, settings, services and calls per method (docs/grpc.md). */
export const grpcRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: 'grpc',
    handler: ({ ctx }) => {
      const details = ctx.registry.details('gRPC');
      if (details === undefined) throw new AdminError(404, 'no gRPC server runs: put .proto files in grpc.proto_dir (proto/ by default) or point --proto-dir at some');
      return ok(details);
    },
  },
];
