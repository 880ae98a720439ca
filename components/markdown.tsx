'use client';

import { useMemo, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { HighlightTerms } from './search/highlight';
import { safeUrl } from './search/links';
import { rehypeMark } from './search/rehype-mark';
import { cx } from './ui';

/*
 * Markdown from documents, shown safely: raw HTML in the text is dropped (skipHtml, no rehype-raw);
 * only web and email addresses stay links (anything else, relative addresses included, becomes
 * plain text), and links open in a new tab without access to this page and without passing on
 * ranking or the console's address. Images are never loaded from wherever the document points:
 * their description is shown instead, as a link to the picture when it has a web address.
 */

const LINK_REL = 'noopener noreferrer nofollow';

function SafeLink({ href, children }: { href?: string; children?: ReactNode }) {
  if (!href) return <span>{children}</span>;
  return (
    <a href={href} target="_blank" rel={LINK_REL}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

const BASE: Components = {
  a: ({ href, children }) => <SafeLink href={href}>{children}</SafeLink>,
  img: ({ src, alt }) => {
    const label = alt ? `[Image: ${alt}]` : '[Image]';
    const address = typeof src === 'string' ? src : '';
    return address ? (
      <SafeLink href={address}>{label}</SafeLink>
    ) : (
      <span className="rounded bg-slate-100 px-1 text-sm text-slate-700 italic">{label}</span>
    );
  },
  table: ({ node: _node, children, ...props }) => (
    <div role="region" aria-label="Table" tabIndex={0} className="my-3 max-w-full overflow-x-auto">
      <table {...props} className="!my-0">
        {children}
      </table>
    </div>
  ),
};

/** Headings of a passage shown inside a search result: bold lines, not headings of the console page. */
const headingAsText = ({ children }: { children?: ReactNode }) => <p className="!mb-1 font-semibold text-slate-900">{children}</p>;

const PASSAGE: Components = { ...BASE, h1: headingAsText, h2: headingAsText, h3: headingAsText, h4: headingAsText, h5: headingAsText, h6: headingAsText };

/**
 * Renders Markdown (with GFM tables, task lists and strikethrough) as readable text. `highlight`
 * marks the searched words; `passage` shows headings as bold lines, for text set inside a page.
 */
export function Markdown({ children, className, highlight, passage }: { children: string; className?: string; highlight?: HighlightTerms; passage?: boolean }) {
  const rehypePlugins = useMemo(() => (highlight ? [[rehypeMark, highlight] as [typeof rehypeMark, HighlightTerms]] : []), [highlight]);
  return (
    <div className={cx('prose-quarry break-words', className)}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={rehypePlugins} components={passage ? PASSAGE : BASE} skipHtml urlTransform={safeUrl}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
