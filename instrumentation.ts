/**
 * Runs once when the server starts: takes the data-directory lock, migrates the database and
 * creates the first administrator key if needed. A failure stops the process with its reason.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startQuarry } = await import('./lib/ops/instrumentation-node');
    await startQuarry();
  }
}
