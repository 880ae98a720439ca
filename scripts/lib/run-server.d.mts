import type { ChildProcess } from 'node:child_process';
export declare function freePort(): Promise<number>;
export interface RunningServer {
  baseUrl: string;
  port: number;
  pid: number | undefined;
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits until the server and its children are nearly idle (after their start-up work), at most `timeoutMs`. */
  quiet(timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}
export declare function runServer(options?: { env?: Record<string, string>; port?: number; timeoutMs?: number; nodeArgs?: string[] }): Promise<RunningServer>;
