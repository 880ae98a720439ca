/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its WebAssembly and extension bundles from its own package directory;
  // bundling them breaks that lookup, so they are required from node_modules at run time.
  serverExternalPackages: ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', 'postgres', 'busboy', 'file-type', 'esbuild', '@node-rs/argon2'],
  poweredByHeader: false,
  // Type checking is its own step (`npm run typecheck`, run in CI); the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
};

export default nextConfig;
