# mock in a container: docs/deploy.md. Build: docker build -t mock .
# Run:   docker run -p 3000:3000 -v "$PWD/config:/etc/mock:ro" mock
#        (the folder holds mock.yaml and the descriptions it names)

# --- build: the README's commands, then only the runtime dependencies are kept
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

# --- runtime: what `mock serve` needs, as the unprivileged node user
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /src/package.json /src/oclif.manifest.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/bin ./bin
COPY --from=build /src/dist ./dist
COPY --from=build /src/blueprints ./blueprints
COPY --from=build /src/scenarios ./scenarios
COPY --from=build /src/common/contract ./common/contract
COPY --from=build /src/dashboard/dist ./dashboard/dist
COPY --from=build /src/graphiql/dist ./graphiql/dist
USER node
# the servers that listen on every address by default (server.http_port, ws_port, graphql_port,
# grpc_port); the admin server and metrics are off by default and bind 127.0.0.1 when on
EXPOSE 3000 3001 4000 50051
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/__mock/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/bin/run.js"]
# the builds go to /tmp/mock: the config folder may be read-only (a Kubernetes ConfigMap).
# --workers auto: one worker per core the container may use (its CPU limit included; docs/workers.md)
CMD ["serve", "--config", "/etc/mock/mock.yaml", "--out", "/tmp/mock", "--workers", "auto"]
