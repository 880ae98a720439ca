// Entry point of the `quarry` command (bin/quarry.mjs runs it).
import { run } from './cli/main.js';

// Ctrl-C during a progress bar: give the terminal its cursor back before leaving.
process.once('SIGINT', () => {
  if (process.stderr.isTTY) process.stderr.write('\x1b[?25h\n');
  process.exit(130);
});

process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
