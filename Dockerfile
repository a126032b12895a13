# The current Node.js LTS: 26 "Lithium" (Active LTS 2026-10-28 to 2027-10-20, maintained until
# 2029-04-30), pinned to one release so every build gets the same Node. To update it, or to pin
# it by digest as well: docs/running/docker.md.
ARG NODE_IMAGE=node:26.12.1-bookworm-slim

# Build: bundle the TypeScript with esbuild (and compile sqlite3's native addon) with the dev toolchain.
FROM ${NODE_IMAGE} AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY tools ./tools
COPY src ./src
COPY commands ./commands
RUN npm run build && npm prune --omit=dev

# Run: only the compiled bot and its production dependencies.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The demo shop's pictures: read from the package root's src/demo/images (src/demo/images.ts), not compiled.
COPY --from=build /app/src/demo/images ./src/demo/images
# The insights chart's font (DejaVu Sans, with its licence): the chart is drawn in it alone, and the slim
# image has no fonts (src/services/insights/chart/raster.ts looks for it under the package root).
COPY assets/fonts ./assets/fonts
# Carts, settings and link records live here: mount a volume to keep them across containers.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
# Health and metrics (see docs/running/monitoring.md); the slim image has no curl, so Node checks.
ENV HEALTH_PORT=9464 HEALTH_HOST=0.0.0.0
EXPOSE 9464
# The demo shop's pay page: listening on the container's network, so a published port reaches it
# (set DEMO_PUBLIC_URL to the address members open; docs/running/docker.md).
ENV DEMO_HOST=0.0.0.0
EXPOSE 8787
# It asks the HEALTH_PORT and HEALTH_HOST the container runs with (a wildcard address: this
# container's own 127.0.0.1); with HEALTH_PORT emptied there is no listener to ask, and it passes.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const { HEALTH_PORT: port, HEALTH_HOST: host = '' } = process.env; if (!port) process.exit(0); const to = ['', '0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host; fetch(`http://${to}:${port}/healthz/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# As npm start runs it: the bundle (tools/bundle.mjs), one file to load instead of ~600, and V8 told to
# keep the heap near what the bot holds (docs/performance.md: memory).
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=20", "dist/bundle/main.js"]
