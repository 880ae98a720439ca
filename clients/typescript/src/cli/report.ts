// Exit codes and error messages of the `quarry` command, shared by every subcommand.
import type { QuarryClient } from '../client.js';
import { QuarryError, QuarryJobFailedError, QuarryTimeoutError } from '../errors.js';
import { UsageError } from './args.js';

/** Exit codes, also listed by `quarry help`. */
export const EXIT = { ok: 0, apiError: 1, usage: 2, jobFailed: 3, unreachable: 4, timeout: 5 } as const;

export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

export interface CommandContext {
  client: QuarryClient;
  io: Io;
  /** Draw progress bars (stderr is a terminal and the output is not JSON). */
  bars: boolean;
  /** Prints a line on stdout. */
  out(line: string): void;
  /** Prints a line on stderr. */
  note(line: string): void;
}

function describeNetworkError(err: unknown, baseUrl: string): string | undefined {
  if (!(err instanceof TypeError)) return undefined;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (!cause) return undefined;
  return `cannot reach ${baseUrl}: ${cause.code ?? cause.message ?? err.message} (set QUARRY_URL)`;
}

/** Prints what went wrong and answers the matching exit code. */
export function reportError(err: unknown, ctx: Pick<CommandContext, 'note' | 'client'>): number {
  if (err instanceof UsageError) {
    ctx.note(`quarry: ${err.message} (see quarry help)`);
    return EXIT.usage;
  }
  if (err instanceof QuarryError) {
    const details = err.details && Object.keys(err.details).length > 0 ? ` ${JSON.stringify(err.details)}` : '';
    ctx.note(`quarry: ${err.code} (HTTP ${err.status}): ${err.message}${details}${err.requestId ? ` [${err.requestId}]` : ''}`);
    return EXIT.apiError;
  }
  if (err instanceof QuarryJobFailedError) {
    ctx.note(`quarry: ${err.message}`);
    return EXIT.jobFailed;
  }
  if (err instanceof QuarryTimeoutError) {
    ctx.note(`quarry: ${err.message}`);
    return EXIT.timeout;
  }
  const unreachable = describeNetworkError(err, ctx.client.baseUrl);
  if (unreachable) {
    ctx.note(`quarry: ${unreachable}`);
    return EXIT.unreachable;
  }
  ctx.note(`quarry: ${err instanceof Error ? err.message : String(err)}`);
  return EXIT.apiError;
}
