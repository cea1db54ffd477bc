# syntax=docker/dockerfile:1
# Build: compile TypeScript with the full dependency set.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The root postinstall also installs the lint tools' own tree (tools/lint); the run stage leaves it behind.
COPY tools/lint/package.json tools/lint/package-lock.json tools/lint/install.mjs ./tools/lint/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

# Run: production dependencies and the compiled service only, as a non-root user.
FROM node:20-bookworm-slim AS run
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY migrations ./migrations
COPY config ./config
# The ICD-10-CM release the product ships: the FY2026 code table, the compiled Index and Tabular, and the
# compiled FY2026 Table of Drugs and Chemicals, Neoplasm Table and External Cause Index.
COPY data ./data
# The operations console's static files, served at /console (no build step).
COPY console ./console
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/v1/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "--enable-source-maps", "dist/main.js"]
