import type { Block, Inline } from '@/lib/document/types';

/*
 * Inline runs as the Office and HTML readers build them: whitespace collapsed as a browser shows
 * it, and blocks flattened into one line of runs where only a line fits (a table cell, a heading,
 * a caption).
 */

type TextRun = Extract<Inline, { type: 'text' }>;

const SPACES = /[ \t\r\n\f]+/g;

const MARK_KEYS = ['bold', 'italic', 'strike', 'code', 'superscript', 'subscript', 'href'] as const;

function sameMarks(a: TextRun, b: TextRun): boolean {
  return MARK_KEYS.every((key) => a[key] === b[key]);
}

/**
 * Runs with their whitespace collapsed: runs of spaces, tabs and line ends become one space
 * (across runs too), and none is kept at the start, at the end or beside a line break; breaks at
 * the start or the end are dropped, and neighbouring runs with the same marks become one.
 * Non-breaking spaces stay.
 */
export function collapseInlines(runs: readonly Inline[]): Inline[] {
  const out: Inline[] = [];
  // Whether what was written last ends in a space (or is the start of the line).
  let spaced = true;
  const trimEnd = () => {
    for (let i = out.length - 1; i >= 0; i--) {
      const run = out[i];
      if (run.type !== 'text') return;
      const text = run.text.replace(/ +$/, '');
      if (text) {
        out[i] = { ...run, text };
        return;
      }
      out.splice(i, 1);
    }
  };
  for (const run of runs) {
    if (run.type === 'text') {
      let text = run.text.replace(SPACES, ' ');
      if (spaced) text = text.replace(/^ /, '');
      if (!text) continue;
      const last = out[out.length - 1];
      if (last?.type === 'text' && sameMarks(last, run)) out[out.length - 1] = { ...last, text: last.text + text };
      else out.push(text === run.text ? run : { ...run, text });
      spaced = text.endsWith(' ');
    } else if (run.type === 'break') {
      trimEnd();
      if (out.length) out.push(run);
      spaced = true;
    } else {
      out.push(run);
      spaced = false;
    }
  }
  trimEnd();
  while (out.length && out[out.length - 1].type === 'break') {
    out.pop();
    trimEnd();
  }
  return out;
}

/**
 * Whether runs show anything (text other than whitespace, or a formula, a footnote reference).
 * model.ts re-exports it as hasText for the readers that build on model.ts.
 */
export function hasContent(runs: readonly Inline[]): boolean {
  return runs.some((run) => (run.type === 'text' ? /\S/.test(run.text) : run.type !== 'break'));
}

/** Collapsed runs split where two or more line breaks follow each other (an empty line: a new paragraph). */
export function splitParagraphs(runs: readonly Inline[]): Inline[][] {
  const collapsed = collapseInlines(runs);
  const out: Inline[][] = [];
  let current: Inline[] = [];
  for (let i = 0; i < collapsed.length; i++) {
    const run = collapsed[i];
    if (run.type === 'break' && collapsed[i + 1]?.type === 'break') {
      while (collapsed[i + 1]?.type === 'break') i++;
      out.push(current);
      current = [];
      continue;
    }
    current.push(run);
  }
  out.push(current);
  // Breaks at a split were dropped with the spaces beside them: the pieces need no new collapse.
  return out.filter(hasContent);
}

/** The plain text of runs (formulas as their LaTeX). */
export function runsText(runs: readonly Inline[]): string {
  return runs.map((run) => (run.type === 'text' ? run.text : run.type === 'math' ? run.latex : run.type === 'break' ? ' ' : '')).join('');
}

export function textRun(text: string, marks: Omit<TextRun, 'type' | 'text'> = {}): TextRun {
  return { type: 'text', text, ...marks };
}

/**
 * Runs on one line: a line break becomes a space, in the marks of the text before it (so that an
 * italic passage broken over lines stays one italic run).
 */
function oneLine(runs: readonly Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const run of runs) {
    if (run.type !== 'break') out.push(run);
    else {
      const last = out[out.length - 1];
      if (last?.type === 'text') out[out.length - 1] = { ...last, text: `${last.text} ` };
      else out.push(textRun(' '));
    }
  }
  return out;
}

/**
 * Blocks as one line of runs: paragraphs and headings joined by spaces, list items after their
 * marker ("- ", "2. "), a table's cells row by row, code as code, pictures as `picture(alt)`;
 * line breaks become spaces.
 */
export function flattenBlocks(blocks: readonly Block[], picture: (alt: string) => Inline[]): Inline[] {
  const out: Inline[] = [];
  const add = (runs: readonly Inline[]) => {
    if (!hasContent(runs)) return;
    if (out.length) out.push(textRun(' '));
    out.push(...runs);
  };
  for (const block of blocks) {
    switch (block.type) {
      case 'heading':
      case 'paragraph':
        add(block.content);
        break;
      case 'list':
        block.items.forEach((item, i) => {
          let marker = block.ordered ? `${item.number ?? (block.start ?? 1) + i}.` : '-';
          if (item.checked !== undefined) marker += item.checked ? ' [x]' : ' [ ]';
          if (item.label) marker += ` ${item.label}`;
          add([textRun(`${marker} `), ...flattenBlocks(item.content, picture)]);
        });
        break;
      case 'table':
        if (block.caption) add(block.caption);
        for (const row of block.rows) for (const cell of row) add(cell.content);
        break;
      case 'picture':
        if (block.alt) add(picture(block.alt));
        if (block.caption) add(block.caption);
        break;
      case 'code':
        add([textRun(block.text, { code: true })]);
        break;
      case 'preformatted':
        add([textRun(block.text)]);
        break;
      case 'formula':
        add([{ type: 'math', latex: block.latex }]);
        break;
      case 'quote':
      case 'footnote':
      case 'section':
        add(flattenBlocks(block.content, picture));
        break;
      case 'rule':
        break;
    }
  }
  return collapseInlines(oneLine(out));
}
