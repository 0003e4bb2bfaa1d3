/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  experimental: { preloadEntriesOnStart: false },
  poweredByHeader: false,
  // `npm test` type-checks the whole project (tsc --noEmit) as its own step; repeating it inside every
  // build costs ~15 s and makes the server unbuildable while any unrelated file is mid-edit.
  typescript: { ignoreBuildErrors: true },
  // PGlite ships WASM and data files it loads relative to its own package: keep these packages
  // out of Next's server bundle so they resolve from node_modules at run time. The OpenTelemetry SDK too: the
  // tracer is the runtime's, one per process, and a bundled copy would be a second set of modules.
  serverExternalPackages: ['@electric-sql/pglite', '@electric-sql/pglite-socket', 'pglite-prisma-adapter', 'pg', '@prisma/adapter-pg', 'ioredis', 'undici', 'pino', 'prom-client', '@opentelemetry/api', '@opentelemetry/core', '@opentelemetry/resources', '@opentelemetry/sdk-trace-base', '@opentelemetry/exporter-trace-otlp-http'],
};
export default nextConfig;
