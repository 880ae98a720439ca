// `npm start`: builds the production bundle when there is none, then starts the server.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) {
  console.log('No production build found: building Quarry first (this takes a minute or two)...');
  const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
  const result = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error('The build failed; see the output above.');
    process.exit(result.status ?? 1);
  }
}

process.env.NODE_ENV = 'production';
const { startServer } = await import('./server.mjs');
startServer().catch((err) => {
  console.error(`Quarry could not start: ${err?.message ?? err}`);
  process.exit(1);
});
