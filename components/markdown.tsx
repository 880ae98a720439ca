'use client';

import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { cx } from './ui';

/*
 * Markdown from documents, shown safely: raw HTML in the text is dropped (no rehype-raw), link
 * addresses go through react-markdown's default URL filter (no javascript: links), links open in a
 * new tab without access to this page, and images are shown as their description instead of being
 * loaded from wherever the document points.
 */

const COMPONENTS: Components = {
  a: ({ node: _node, href, children, ...props }) => (
    <a {...props} href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
  img: ({ alt }) => <span className="rounded bg-slate-100 px-1 text-sm text-slate-600 italic">{alt ? `[Image: ${alt}]` : '[Image]'}</span>,
  table: ({ node: _node, children, ...props }) => (
    <div role="region" aria-label="Table" tabIndex={0} className="my-3 max-w-full overflow-x-auto">
      <table {...props} className="!my-0">
        {children}
      </table>
    </div>
  ),
};

/** Renders Markdown (with GFM tables, task lists and strikethrough) as readable text. */
export function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div className={cx('prose-quarry break-words', className)}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={COMPONENTS} skipHtml>
        {children}
      </ReactMarkdown>
    </div>
  );
}
