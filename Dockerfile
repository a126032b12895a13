# Build: compile TypeScript (and sqlite3's native addon) with the dev toolchain.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY tools ./tools
COPY src ./src
COPY commands ./commands
RUN npm run build && npm prune --omit=dev

# Run: only the compiled bot and its production dependencies.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Carts, settings and link records live here: mount a volume to keep them across containers.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
CMD ["node", "dist/src/main.js"]
