import type { Element, ElementContent, Root, RootContent } from 'hast';
import { hasTerms, highlightParts, type HighlightTerms } from './highlight';

/*
 * A rehype plugin for react-markdown: wraps the searched words of the rendered Markdown in <mark>,
 * in paragraphs, lists, tables and code alike, without touching the Markdown source (so marking
 * can never change how the text is formatted or open a way for raw HTML).
 */

const MARK_CLASS = ['rounded-sm', 'bg-yellow-200', 'px-0.5', 'text-slate-900'];

type Parent = Root | Element;

function markText(value: string, terms: HighlightTerms): ElementContent[] | null {
  const parts = highlightParts(value, terms);
  if (!parts.some((p) => p.marked)) return null;
  return parts.map(
    (part): ElementContent =>
      part.marked
        ? { type: 'element', tagName: 'mark', properties: { className: MARK_CLASS }, children: [{ type: 'text', value: part.text }] }
        : { type: 'text', value: part.text },
  );
}

function walk(node: Parent, terms: HighlightTerms): void {
  const children: (RootContent | ElementContent)[] = [];
  let changed = false;
  for (const child of node.children) {
    if (child.type === 'text') {
      const marked = markText(child.value, terms);
      if (marked) {
        children.push(...marked);
        changed = true;
        continue;
      }
    } else if (child.type === 'element' && child.tagName !== 'mark') {
      walk(child, terms);
    }
    children.push(child);
  }
  if (changed) node.children = children as typeof node.children;
}

/** The plugin, for `rehypePlugins={[[rehypeMark, terms]]}`. */
export function rehypeMark(terms: HighlightTerms) {
  return (tree: Root) => {
    if (hasTerms(terms)) walk(tree, terms);
  };
}
