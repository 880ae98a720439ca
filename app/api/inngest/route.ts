import { serve } from 'inngest/next';
import { inngest } from '@/inngest/client';
import { functions } from '@/inngest/functions';

/** Inngest calls this endpoint to run Quarry's functions (requests are signed with INNGEST_SIGNING_KEY). */
export const { GET, POST, PUT } = serve({ client: inngest, functions });
