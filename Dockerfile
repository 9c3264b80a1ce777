# One image, two commands: the web server (default) and the jobs process (`npm run jobs`).
# Node.js 24 (LTS): Node.js 20 has had no security fixes since 2026-04-30 (docs/decisions/207).
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --omit=dev
COPY . .
RUN npx react-router build
EXPOSE 3000
VOLUME ["/app/data"]
CMD ["npm", "run", "serve"]
