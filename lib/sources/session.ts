/*
 * What one sync keeps in this process between its items (a bucket client with open connections,
 * a site's robots.txt): handed to the source type as `ctx.session`, ended with the run. After a
 * restart a resumed run starts an empty one, which costs a request or two, never correctness.
 */

const holder = globalThis as unknown as { __quarrySourceSessions?: Map<string, Map<string, unknown>> };

function sessions(): Map<string, Map<string, unknown>> {
  return (holder.__quarrySourceSessions ??= new Map());
}

export function sessionOf(runId: string): Map<string, unknown> {
  let session = sessions().get(runId);
  if (!session) {
    session = new Map();
    sessions().set(runId, session);
  }
  return session;
}

/** Closes what the run's session holds that can be closed, and forgets it. */
export function endSession(runId: string): void {
  const session = sessions().get(runId);
  if (!session) return;
  sessions().delete(runId);
  for (const value of session.values()) {
    const closable = value as { destroy?: () => void } | null;
    if (closable && typeof closable.destroy === 'function') {
      try {
        closable.destroy();
      } catch {
        // Closing is best effort: the connections time out by themselves.
      }
    }
  }
}
