import { Inngest } from 'inngest';

/**
 * The Inngest client. It reads INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY, INNGEST_BASE_URL and
 * INNGEST_DEV from the environment; Quarry uses Inngest only when one of them is set.
 */
export const inngest = new Inngest({ id: 'quarry' });
