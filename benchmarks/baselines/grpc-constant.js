// Baseline: a hand-written @grpc/grpc-js server answering helloworld.Greeter/SayHello with one
// constant message, the least a grpc-js server does per call. argv: <helloworld.proto>
import grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';

const [proto] = process.argv.slice(2);
const loaded = grpc.loadPackageDefinition(loadSync(proto, { keepCase: true }));
const server = new grpc.Server();
const reply = { message: 'Hello world' };
server.addService(loaded.helloworld.Greeter.service, {
  SayHello: (_call, callback) => callback(null, reply),
  SayHelloStreamReply: (call) => call.end(),
});
server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  // the same readiness line as `mock serve`, so one parser serves all targets
  console.log(`serving on http://127.0.0.1:${port}`);
});
