import { z } from 'zod';
import { endpoint } from '../endpoint';

const jsonRpc = z
  .looseObject({ jsonrpc: z.literal('2.0') })
  .meta({ id: 'JsonRpcMessage', description: 'A JSON-RPC 2.0 message of the Model Context Protocol (or a batch of them)' });

export const mcp = endpoint({
  id: 'mcp',
  method: 'POST',
  path: '/mcp',
  summary: 'Model Context Protocol server (Streamable HTTP, stateless): tools and resources for AI agents',
  auth: 'authenticated',
  upload: jsonRpc,
  uploadMediaType: 'application/json',
  response: {
    status: 200,
    description:
      'The JSON-RPC answer (application/json). Tools and resources follow the key\'s scopes; see the README\'s "MCP server" section',
    binary: 'application/json',
  },
  errors: ['PAYLOAD_TOO_LARGE'],
});
