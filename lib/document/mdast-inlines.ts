/**
 * mdast phrasing content → the model's inline runs (for mdast-blocks.ts), walked with a stack of
 * its own so deep nesting cannot overflow the call stack. Runs end up as the renderer writes them:
 * neighbours with the same marks joined, the whitespace at a marked run's edges outside it.
 */
import type { Nodes, PhrasingContent } from 'mdast';
import type {} from 'mdast-util-math';
import type {} from 'mdast-util-gfm';
import { safeHref } from './links';
import type { Inline, Span, TextMarks } from './types';

export type TextRun = Extract<Inline, { type: 'text' }>;

export interface ConvertContext {
  /** The parsed text, for the delimiters of math. */
  source: string;
  /** Nodes from this offset on were appended to the source for the parse (dropped). */
  cutoff: number;
  /** Link definitions of the document so far, by identifier: the first one counts. */
  definitions: Map<string, string>;
  /** Link runs whose definition comes later in the document: set by resolvePending. */
  pending: { run: TextRun; identifier: string }[];
  /** Where a node of the piece is in the whole Markdown (for the top level's spans). */
  spanOf?: (node: Nodes) => Span;
}

const PENDING = '\u0000pending:';
const COMMENT = /<!--[\s\S]*?-->/g;

export const startOf = (node: Nodes): number => node.position?.start.offset ?? 0;
export const endOf = (node: Nodes): number => node.position?.end.offset ?? 0;

export function sameMarks(a: TextMarks, b: TextMarks): boolean {
  return !a.bold === !b.bold && !a.italic === !b.italic && !a.strike === !b.strike && !a.code === !b.code && a.href === b.href;
}

function pushText(out: Inline[], text: string, marks: TextMarks, ctx: ConvertContext): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last?.type === 'text' && sameMarks(last, marks)) {
    last.text += text;
    return;
  }
  const run: TextRun = { type: 'text', text, ...marks };
  if (marks.href?.startsWith(PENDING)) ctx.pending.push({ run, identifier: marks.href.slice(PENDING.length) });
  out.push(run);
}

/** Inline math written with one "$" that reads as prices ("$5 and $10") stays text (Pandoc's rule). */
export function mathDelimiters(node: Nodes, ctx: ConvertContext): { dollars: number; literal: string | null } {
  const source = ctx.source.slice(startOf(node), endOf(node));
  const dollars = /^\$*/.exec(source)![0].length;
  const inner = source.slice(dollars, source.length - dollars);
  const after = ctx.source.charAt(endOf(node));
  if (dollars !== 1 || !(/^\s|\s$/.test(inner) || /\d/.test(after))) return { dollars, literal: null };
  // The text is what the reader would have made of it without math: its escapes undone (and,
  // over several lines, without the container prefixes the source has there).
  const oneLine = node.position?.start.line === node.position?.end.line;
  const written = oneLine ? source : `$${'value' in node ? node.value : inner}$`;
  return { dollars, literal: written.replace(/\\([!-/:-@[-`{-~])/g, '$1') };
}

function referenceHref(identifier: string, ctx: ConvertContext): string | undefined {
  const url = ctx.definitions.get(identifier);
  if (url === undefined) return `${PENDING}${identifier}`;
  return safeHref(url);
}

function withHref(marks: TextMarks, href: string | undefined): TextMarks {
  const out = { ...marks };
  if (href) out.href = href;
  else delete out.href;
  return out;
}

function isPlain(run: TextMarks): boolean {
  return !run.bold && !run.italic && !run.strike && !run.code && !run.href;
}

/**
 * Runs as the renderer writes them: the whitespace at the edges of a marked run is outside its
 * marks ("** a**" is no emphasis), and neighbours with the same marks are one run.
 */
function settled(runs: Inline[], ctx: ConvertContext): Inline[] {
  const out: Inline[] = [];
  for (const run of runs) {
    if (run.type !== 'text' || isPlain(run)) {
      if (run.type === 'text') pushText(out, run.text, {}, ctx);
      else out.push(run);
      continue;
    }
    const m = /^(\s*)([\s\S]*?)(\s*)$/.exec(run.text)!;
    const { type: _type, text: _text, ...marks } = run;
    pushText(out, m[1], {}, ctx);
    pushText(out, m[2], marks, ctx);
    pushText(out, m[3], {}, ctx);
  }
  return out;
}

/** Phrasing content → inline runs, neighbours with the same marks joined. */
export function inlinesOf(nodes: readonly PhrasingContent[], ctx: ConvertContext): Inline[] {
  return settled(rawInlinesOf(nodes, ctx), ctx);
}

function rawInlinesOf(nodes: readonly PhrasingContent[], ctx: ConvertContext): Inline[] {
  const out: Inline[] = [];
  const stack: { nodes: readonly Nodes[]; next: number; marks: TextMarks }[] = [{ nodes, next: 0, marks: {} }];
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.next >= top.nodes.length) {
      stack.pop();
      continue;
    }
    const node = top.nodes[top.next++];
    const marks = top.marks;
    switch (node.type) {
      case 'text':
        pushText(out, node.value, marks, ctx);
        break;
      case 'emphasis':
        stack.push({ nodes: node.children, next: 0, marks: { ...marks, italic: true } });
        break;
      case 'strong':
        stack.push({ nodes: node.children, next: 0, marks: { ...marks, bold: true } });
        break;
      case 'delete':
        stack.push({ nodes: node.children, next: 0, marks: { ...marks, strike: true } });
        break;
      case 'inlineCode':
        pushText(out, node.value, { ...marks, code: true }, ctx);
        break;
      case 'link':
        stack.push({ nodes: node.children, next: 0, marks: withHref(marks, safeHref(node.url)) });
        break;
      case 'linkReference':
        stack.push({ nodes: node.children, next: 0, marks: withHref(marks, referenceHref(node.identifier, ctx)) });
        break;
      case 'image':
      case 'imageReference':
        pushText(out, node.alt ?? '', marks, ctx);
        break;
      case 'footnoteReference':
        out.push({ type: 'footnote_ref', label: node.label ?? node.identifier });
        break;
      case 'inlineMath': {
        const { literal } = mathDelimiters(node, ctx);
        if (literal !== null) pushText(out, literal, marks, ctx);
        // One line, as the renderer writes it.
        else out.push({ type: 'math', latex: node.value.replace(/\s+/g, ' ').trim() });
        break;
      }
      case 'break':
        out.push({ type: 'break' });
        break;
      case 'html':
        // Raw HTML is text, never markup; comments are not text.
        pushText(out, node.value.replace(COMMENT, ''), marks, ctx);
        break;
      default:
        if ('children' in node) stack.push({ nodes: node.children, next: 0, marks });
        else if ('value' in node) pushText(out, node.value, marks, ctx);
    }
  }
  return out;
}

/** Gives the runs of references to later definitions their link (or none). */
export function resolvePending(ctx: ConvertContext): void {
  for (const { run, identifier } of ctx.pending) {
    const href = safeHref(ctx.definitions.get(identifier));
    if (href) run.href = href;
    else delete run.href;
  }
  ctx.pending = [];
}
