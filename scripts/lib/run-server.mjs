// Starts the production server in a child process on a free port and waits until it answers.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from './ensure-build.mjs';
import { processTree } from './process-tree.mjs';

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** CPU time (clock ticks) of a process and every process below it. */
function treeTicks(root) {
  return processTree(root).reduce((sum, p) => sum + p.ticks, 0);
}

export async function runServer({ env = {}, port, timeoutMs = 60_000, nodeArgs = [] } = {}) {
  port ??= await freePort();
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 200))]);
    if (state) throw new Error(`server exited early (${JSON.stringify(state)}):\n${output}`);
    if (output.includes('is running')) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within ${timeoutMs} ms:\n${output}`);
    }
  }
  return {
    baseUrl,
    port,
    pid: child.pid,
    child,
    output: () => output,
    exited,
    /**
     * Waits until the server and its children (the extraction worker warming up after the start)
     * use less than a tenth of a core over half a second, so that a benchmark measures the server
     * at work, not its start. Gives up after `timeoutMs`.
     */
    async quiet(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let before = treeTicks(child.pid);
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        const now = treeTicks(child.pid);
        // Clock ticks are hundredths of a second: 5 in half a second is a tenth of a core.
        if (now - before < 5) return;
        before = now;
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill(signal);
      return exited;
    },
  };
}
