# The gateway's image (docs/operations.md, "Deploy"): built in one stage with every development package, run in
# another from the compiled gateway alone (scripts/build-gateway.mjs bundles what it imports), as the unprivileged
# `node` user, with `node` itself as the process that gets the signals. test/operations/image.test.ts runs this file's
# build and start commands outside a container: no image was built where this repository is developed.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4010 PGLITE_DIR=/data/pglite
WORKDIR /app
# What was built: the gateway, the element it serves (and its chunks), the demo's pages for `node dist/gateway/demo.js`,
# and the operator's merchants command, `node dist/gateway/merchants.js` (docs/operations.md, "Merchants").
COPY --from=build /app/dist dist
COPY --from=build /app/node_modules/@electric-sql/pglite node_modules/@electric-sql/pglite
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=2s CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/gateway/main.js"]
