import type { Endpoint } from '../endpoint';
import * as apiKeys from './api-keys';
import * as extractions from './extractions';
import * as files from './files';
import * as knowledgeBases from './knowledge-bases';
import * as mcp from './mcp';
import * as operations from './operations';
import * as sources from './sources';
import * as users from './users';
import * as webhooks from './webhooks';

/** Every operation of the API, by operationId. */
export const endpoints = { ...files, ...extractions, ...knowledgeBases, ...sources, ...webhooks, ...users, ...apiKeys, ...operations, ...mcp };

const GROUPS = [files, extractions, knowledgeBases, sources, webhooks, users, apiKeys, operations, mcp].map((group) => Object.values(group) as Endpoint[]);
const METHOD_ORDER = ['GET', 'POST', 'PATCH', 'DELETE'];

/**
 * The same, as a list in the order the OpenAPI document and the README show them: by resource,
 * then path, then method.
 */
export const ENDPOINTS: Endpoint[] = GROUPS.flatMap((group) =>
  [...group].sort((a, b) => a.path.localeCompare(b.path, 'en') || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method)),
);
