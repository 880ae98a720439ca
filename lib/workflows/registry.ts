import { extractionWorkflow } from './extraction';
import { indexingWorkflow } from './indexing';
import { reindexWorkflow } from './reindex';
import type { WorkflowDefinition } from './types';
import { webhookDeliveryWorkflow } from './webhook-delivery';

/** Every workflow Quarry runs, by the embedded runner or as Inngest functions. */
export const WORKFLOWS: WorkflowDefinition<any>[] = [extractionWorkflow, indexingWorkflow, reindexWorkflow, webhookDeliveryWorkflow];
