import { extractionWorkflow } from './extraction';
import type { WorkflowDefinition } from './types';

/** Every workflow Quarry runs, by the embedded runner or as Inngest functions. */
export const WORKFLOWS: WorkflowDefinition<any>[] = [extractionWorkflow];
