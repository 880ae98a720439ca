#!/usr/bin/env node
// Launcher of the `quarry` command. In the Quarry repository it runs src/cli.ts through tsx (which
// the repository has), so no build step is needed and edits take effect at once; the published
// package, which ships dist/ and not src/, runs the compiled dist/cli.js.
import fs from 'node:fs';

const source = new URL('../src/cli.ts', import.meta.url);
if (fs.existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/cli.js', import.meta.url).href);
}
