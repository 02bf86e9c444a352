# syntax=docker/dockerfile:1
# The card-key supplier as a container (issue 10 item 2).
#
# Docker cannot run on the machines this project is developed on, so these
# steps are kept IDENTICAL to what `.ci/production-install` proves on every CI
# run on a clean clone: `NODE_ENV=production npm ci`, then `npm start` (which
# builds when stale, migrates, and serves; the CMD below is the command
# `npm start` runs, without npm in between). The only addition is running the
# same `next build` at image build time so a container starts in seconds.
# Change this file and .ci/production-install together.

ARG NODE_VERSION=20.20

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 DATA_DIR=/data
# A user of its own: the app and, without DATABASE_URL, the embedded
# PostgreSQL run as this user (PostgreSQL refuses to run as root).
RUN groupadd --system cardkey && useradd --system --gid cardkey --home-dir /app cardkey \
  && mkdir -p /data && chown cardkey:cardkey /data
COPY --from=build --chown=cardkey:cardkey /app /app
USER cardkey
# DATA_DIR: the embedded database (without DATABASE_URL) and generated
# SECRET_KEY / NEXTAUTH_SECRET files; uploaded pictures live in the database
# (decision 0044). Back it up (README "Backup and restore").
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Issue 27.3, decision 0040: node itself is the container's process, not npm:
# `docker stop` sends SIGTERM to PID 1, which turns not-ready
# (SHUTDOWN_DELAY_MS), drains, stops an embedded PostgreSQL and exits 0. This
# is what `npm start` runs. Give it the time to do that: `docker stop -t 45`,
# compose `stop_grace_period: 45s` (the default 10 s can cut a long drain). Run
# with `--init` (compose `init: true`) so orphaned processes are reaped.
CMD ["node", "--import", "tsx", "scripts/start.ts"]
