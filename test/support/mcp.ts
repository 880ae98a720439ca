import { expect } from 'vitest';
import * as mcpRoute from '@/app/mcp/route';
import type { TestApp } from './app';

export type McpAnswer = { result?: any; error?: { code: number; message: string; data?: any } };

/** One JSON-RPC request to /mcp with `key`, answered 200; returns the JSON-RPC body. */
export async function mcpRpc(app: TestApp, key: string, method: string, params: Record<string, unknown> = {}): Promise<McpAnswer> {
  const res = await app.call(mcpRoute.POST, {
    method: 'POST',
    path: '/mcp',
    key,
    headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: { jsonrpc: '2.0', id: 1, method, params },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as McpAnswer;
}
