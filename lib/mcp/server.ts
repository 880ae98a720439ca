import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { hasAnyScope } from '@/lib/auth/scopes';
import type { ServiceContext } from '@/lib/context';
import { ApiError, isApiError } from '@/lib/errors';
import { VERSION } from '@/lib/version';
import { readResource, resourceTemplates, listResources } from './resources';
import { MCP_MAX_UPLOAD_BYTES, TOOLS, type Tool } from './tools';

/** A request body holds at most one base64 upload of MCP_MAX_UPLOAD_BYTES, with room for the JSON around it. */
export const MCP_MAX_BODY_BYTES = Math.ceil(MCP_MAX_UPLOAD_BYTES / 3) * 4 + 1024 * 1024;

const INSTRUCTIONS = [
  'Quarry holds documents turned into Markdown and knowledge bases of their passages.',
  'To answer from documents: list_knowledge_bases, then search_knowledge_base with a question; cite results by their citation field (title, page, section);',
  'use get_passage for the text around a result, read_extraction to read a whole document a part at a time, and get_extraction_document for its structure (tables cell by cell).',
  'Before acting on a passage found earlier, verify_citations with its chunk_id, document_id and file_version tells whether it is current, stale (search again) or gone.',
  'To add documents: upload_file (optionally with extract and knowledge_base_id), extract_file, get_extraction_status, add_to_knowledge_base.',
  'Sources keep a knowledge base in step with a bucket, a site or a URL: list_sources, get_source, sync_source, list_source_runs and get_source_run (its failures).',
].join(' ');

/** A tool's input as JSON Schema: an object at the root, as MCP requires (named schemas nest as $defs). */
function asJsonSchema(schema: z.ZodObject) {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { type?: string; [key: string]: unknown };
  if (json.type !== 'object') throw new Error('An MCP tool input must be a plain object schema (give it no id at the root)');
  return json as { type: 'object'; [key: string]: unknown };
}

/** A tool's answer: the result as JSON text (what every client shows a model) and as structured content. */
function result(value: unknown): CallToolResult {
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: structured };
}

/** A problem the model can act on (bad arguments, a missing document): a tool error, not a protocol error. */
function toolError(code: string, message: string, details?: unknown): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${message}${details ? `\n${JSON.stringify(details)}` : ''}` }],
    structuredContent: { error: { code, message, ...(details ? { details } : {}) } },
  };
}

function invalidArguments(tool: Tool, error: z.ZodError): CallToolResult {
  const problems = error.issues.map((i) => ({ field: i.path.join('.') || '(arguments)', message: i.message }));
  return toolError('INVALID_REQUEST', `Invalid arguments for ${tool.name}: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`, { problems });
}

/** The MCP server for one request's caller: the tools and resources its scopes allow. */
function serverFor(ctx: ServiceContext): Server {
  const scopes = ctx.principal?.scopes ?? [];
  const server = new Server({ name: 'quarry', title: 'Quarry', version: VERSION }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.filter((t) => hasAnyScope(scopes, t.scopes)).map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: asJsonSchema(t.input),
      annotations: { title: t.title, readOnlyHint: t.readOnly, openWorldHint: false },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; tools/list shows the ones this key may use`);
    if (!hasAnyScope(scopes, tool.scopes)) {
      const needed = tool.scopes.join(' or ');
      throw new McpError(ErrorCode.InvalidRequest, `The tool ${tool.name} needs the scope ${needed}, which this API key does not have`, {
        code: 'INSUFFICIENT_SCOPE',
        required_scope: tool.scopes[0],
        accepted_scopes: tool.scopes,
      });
    }
    const args = tool.input.safeParse(request.params.arguments ?? {});
    if (!args.success) return invalidArguments(tool, args.error);
    try {
      return result(await tool.run(ctx, args.data));
    } catch (err) {
      if (isApiError(err)) return toolError(err.code, err.message, err.details);
      throw err;
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(ctx, scopes) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: resourceTemplates(scopes) }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return await readResource(ctx, scopes, request.params.uri);
    } catch (err) {
      if (isApiError(err)) throw new McpError(ErrorCode.InvalidParams, `${err.code}: ${err.message}`, { code: err.code, ...(err.details ?? {}) });
      throw err;
    }
  });
  return server;
}

/**
 * Answers one Streamable HTTP POST (stateless: no session; every POST carries its caller's key).
 * The route serves only POST: GET (a server-initiated event stream) and DELETE (ending a session)
 * have nothing to do without sessions and are answered 405 by the API wrapper, as the transport allows.
 */
export async function handleMcpRequest(request: Request, ctx: ServiceContext): Promise<Response> {
  const server = serverFor(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
  });
  await server.connect(transport);
  let response: Response;
  try {
    response = await transport.handleRequest(request);
  } finally {
    await server.close().catch(() => undefined);
  }
  if (response.status < 400) return response;
  // A request the transport refuses before any MCP message is handled (no Accept header, a body
  // that is not JSON-RPC, too large): answered like every other bad request, in the API's error body.
  const answer = (await response.json().catch(() => null)) as { error?: { code?: number; message?: string } } | null;
  const message = answer?.error?.message ?? `the MCP transport answered ${response.status}`;
  if (response.status === 413) throw new ApiError('PAYLOAD_TOO_LARGE', `The MCP request is larger than ${MCP_MAX_BODY_BYTES} bytes`, { max_bytes: MCP_MAX_BODY_BYTES });
  throw new ApiError('INVALID_REQUEST', `Not a valid MCP request: ${message}`, {
    reason: 'mcp transport',
    mcp_status: response.status,
    ...(answer?.error?.code !== undefined ? { jsonrpc_code: answer.error.code } : {}),
  });
}
