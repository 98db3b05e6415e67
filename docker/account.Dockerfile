# syntax=docker/dockerfile:1
# The account service. Build from the repository root:
#   docker build -f docker/account.Dockerfile -t geoaccount/account .
# Stage "build" compiles the workspace; stage "runtime" holds only the app's compiled code
# and its production dependency closure (pnpm deploy --prod), run by a non-root user.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
ENV CI=true
RUN npm install -g pnpm@10.34.9
WORKDIR /src
# Dependencies first, from the lockfile only, so that this layer survives source changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc .pnpmfile.cjs ./
RUN pnpm fetch --frozen-lockfile
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm --filter "@geoaccount/account..." --filter @geoaccount/console run build
# The app with its own production dependencies only (the lockfile's closure of the app's
# `dependencies`: no root or dev packages, see .pnpmfile.cjs); sources and tests are dropped.
RUN pnpm --config.inject-workspace-packages=true --filter @geoaccount/account deploy --prod /out \
 && rm -rf /out/src /out/test /out/jest.config.js /out/tsconfig.json /out/tsconfig.build.json /out/dist/.tsbuildinfo

FROM ${NODE_IMAGE} AS runtime
# Memory (docs/performance.md, "Memory within the pod's limit"): V8's old space sized for the
# Kubernetes limit (the Deployment sets the same NODE_OPTIONS next to its limit), and at most
# two glibc malloc arenas instead of eight per core for the native threads. The CMD's flags:
# a 32 MB semi-space (a list's rows die young instead of being promoted) and V8's heap growing
# factor of a large host (4: under a cap of a few hundred MB V8 picks about 1.3, and the lists
# cost 10-28% more CPU, measured).
ENV NODE_ENV=production \
    PORT=3001 \
    HOST=0.0.0.0 \
    NODE_OPTIONS=--max-old-space-size=256 \
    MALLOC_ARENA_MAX=2
WORKDIR /app
# Owned by root, readable by the app user: the code cannot be changed at run time.
COPY --from=build /out ./
# The web console's static files, where the service looks for them (../console/dist from its
# own folder, as in the workspace).
COPY --from=build /src/apps/console/dist /console/dist
USER 1000:1000
EXPOSE 3001
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3001) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# Migrations: the same image with `node dist/database/migrate.js` (compose service
# account-migrate, Kubernetes Job account-migrate).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=32", "--heap-growing-percent=300", "dist/main.js"]
