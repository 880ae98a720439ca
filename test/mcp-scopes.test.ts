import { describe, expect, it } from 'vitest';
import * as mcpRoute from '@/app/mcp/route';
import { SCOPES } from '@/lib/auth/scopes';
import { windowOf, pagesOf } from '@/lib/mcp/pages';
import { useTestApp } from '@/test/support/app';
import { mcpRpc } from '@/test/support/mcp';

/**
 * The MCP tools against every scope: a tool is listed exactly when the key's scopes allow it, and
 * calling one that is not allowed is a JSON-RPC error naming the scope, before anything runs.
 */
const app = useTestApp();

/** Which scopes allow each tool (any one of them), as the README documents it. */
const TOOL_SCOPES: Record<string, string[]> = {
  list_knowledge_bases: ['kb:read', 'kb:search'],
  search_knowledge_base: ['kb:read', 'kb:search'],
  get_document: ['kb:read', 'kb:search'],
  get_passage: ['kb:read', 'kb:search'],
  read_extraction: ['extractions:read'],
  get_extraction_document: ['extractions:read'],
  upload_file: ['files:write'],
  extract_file: ['extractions:write'],
  get_extraction_status: ['extractions:read'],
  add_to_knowledge_base: ['kb:write'],
  list_sources: ['sources:read'],
  get_source: ['sources:read'],
  sync_source: ['sources:write'],
  list_source_runs: ['sources:read'],
  get_source_run: ['sources:read'],
  verify_citations: ['kb:read', 'kb:search'],
};

const covers = (held: string, needed: string) => held === '*' || held === needed || held === `${needed.split(':')[0]}:*`;

const rpc = (key: string, method: string, params: Record<string, unknown> = {}) => mcpRpc(app, key, method, params);

describe('MCP tools by scope', () => {
  it('lists and admits each tool for exactly the scopes that allow it', async () => {
    for (const scope of SCOPES) {
      const { key } = await app.createKey({ scopes: [scope] });
      const listed = (await rpc(key, 'tools/list')).result.tools.map((t: { name: string }) => t.name).sort();
      const expected = Object.keys(TOOL_SCOPES)
        .filter((tool) => TOOL_SCOPES[tool].some((needed) => covers(scope, needed)))
        .sort();
      expect(listed, scope).toEqual(expected);
      for (const tool of Object.keys(TOOL_SCOPES)) {
        const answer = await rpc(key, 'tools/call', { name: tool, arguments: {} });
        if (expected.includes(tool)) {
          // Allowed: it runs (empty arguments make it a tool error about them, never a scope error).
          expect(answer.error, `${scope} ${tool}`).toBeUndefined();
          expect(JSON.stringify(answer.result), `${scope} ${tool}`).not.toContain('INSUFFICIENT_SCOPE');
        } else {
          expect(answer.error?.data, `${scope} ${tool}`).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
          expect([...answer.error!.data.accepted_scopes].sort()).toEqual([...TOOL_SCOPES[tool]].sort());
          expect(answer.error?.message).toMatch(new RegExp(`needs the scope ${TOOL_SCOPES[tool].map((s) => `(${s})`).join('|')}`));
        }
      }
    }
  }, 120_000);

  it('goes through the API wrapper: no key is 401 in the API error body', async () => {
    const res = await app.call(mcpRoute.POST, { method: 'POST', path: '/mcp', key: null, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });
});

describe('reading an extraction a piece at a time', () => {
  const md = ['Intro before the first marker', '<!-- page 1 -->', 'one', '<!-- page 2 -->', 'two 😀 two', '<!-- page 3 -->', 'three'].join('\n');

  it('selects page ranges by their markers', () => {
    expect(pagesOf(md, 2, 2)).toEqual({ text: '<!-- page 2 -->\ntwo 😀 two\n', first: 2, last: 2 });
    expect(pagesOf(md, 1, 1).text.startsWith('Intro before')).toBe(true);
    expect(pagesOf(md, 3, undefined)).toMatchObject({ first: 3, last: 3, text: '<!-- page 3 -->\nthree' });
    expect(pagesOf(md, 9, 12)).toEqual({ text: '', first: null, last: null });
    expect(pagesOf('no markers', 2, 3)).toEqual({ text: 'no markers', first: null, last: null });
  });

  it('pages through characters without cutting a character in two', () => {
    const text = pagesOf(md, 2, 2).text;
    const at = text.indexOf('😀');
    const first = windowOf(md, { pageStart: 2, pageEnd: 2, offset: 0, maxChars: at + 1 });
    expect(first.text).toBe(text.slice(0, at));
    expect(first.next_offset).toBe(at);
    const rest = windowOf(md, { pageStart: 2, pageEnd: 2, offset: first.next_offset!, maxChars: 1000 });
    expect(first.text + rest.text).toBe(text);
    expect(rest.next_offset).toBeNull();
  });
});
