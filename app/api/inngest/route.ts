import { serve } from 'inngest/next';
import { inngest } from '@/inngest/client';
import { functions } from '@/inngest/functions';
import { newId } from '@/lib/ids';
import { workflowMode } from '@/lib/ops/workflows';

/** Inngest calls this endpoint to run Quarry's functions (requests are signed with INNGEST_SIGNING_KEY). */
const handlers = serve({ client: inngest, functions });

/** Without Inngest configured the pipelines run embedded and this endpoint does not exist. */
function onlyWithInngest<H extends (...args: any[]) => Promise<Response>>(handler: H): H {
  return (async (...args: Parameters<H>) => {
    if (workflowMode() !== 'inngest') {
      return Response.json(
        { error: { code: 'NOT_FOUND', message: 'Inngest is not configured on this server', request_id: newId('request') } },
        { status: 404 },
      );
    }
    return handler(...args);
  }) as H;
}

export const GET = onlyWithInngest(handlers.GET);
export const POST = onlyWithInngest(handlers.POST);
export const PUT = onlyWithInngest(handlers.PUT);
