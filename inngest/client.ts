import { Inngest } from 'inngest';

/**
 * The Inngest client. It reads INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY, INNGEST_BASE_URL and
 * INNGEST_DEV from the environment; Quarry uses Inngest only when one of them is set.
 */
export const inngest = new Inngest({ id: 'quarry' });

/**
 * The variables Inngest mode needs but finds unset. Outside dev mode (INNGEST_DEV unset or false),
 * whether Inngest is Inngest Cloud or a self-hosted `inngest start`, the SDK sends no event without
 * INNGEST_EVENT_KEY and answers no request at /api/inngest without INNGEST_SIGNING_KEY. Without
 * INNGEST_SERVE_ORIGIN it would register the URL a sync request names in its Host header, and
 * that request needs no signature: anyone could point Inngest at a host of their choosing.
 */
export function missingInngestSettings(client: Inngest = inngest, env: Record<string, string | undefined> = process.env): string[] {
  if (client.mode === 'dev') return [];
  const missing: string[] = [];
  if (!client.eventKey) missing.push('INNGEST_EVENT_KEY');
  if (!client.signingKey) missing.push('INNGEST_SIGNING_KEY');
  if (!env.INNGEST_SERVE_ORIGIN) missing.push('INNGEST_SERVE_ORIGIN');
  return missing;
}
