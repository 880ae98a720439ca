import type { Quote } from '@/lib/document/types';
import { paragraphText } from './drawingml';
import { paragraph, text } from './model';
import { childElements, firstChild, readRelationships, readXmlPart, textOf, type XmlElement } from './xml';
import { relsPathOf, resolvePartPath, type OfficeZip } from './zip';

/*
 * Slide comments, read like speaker notes: a quote at the end of the slide's section, one
 * "**Comment by <author>:** text" paragraph per comment and "**Reply by <author>:**" for each
 * reply of a modern comment, in the order the comment part stores them.
 *
 * - Legacy comments (PowerPoint 2007–2019): ppt/comments/commentN.xml (p:cmLst / p:cm / p:text),
 *   authors in ppt/commentAuthors.xml (p:cmAuthor id → name).
 * - Modern comments (Microsoft 365): ppt/comments/modernComment_*.xml (p188:cm with a DrawingML
 *   text body and p188:replyLst), authors in ppt/authors.xml (p188:author id → name).
 * Both are found through the slide's relationships; author lists through the presentation's, or
 * where PowerPoint puts them.
 */

interface SlideComment {
  author?: string;
  text: string;
  reply: boolean;
}

/** Author id → display name, for both comment generations. */
export class CommentAuthors {
  private readonly names = new Map<string, string>();

  constructor(zip: OfficeZip, presPart: string) {
    const parts = new Set<string>();
    for (const rel of readRelationships(zip, relsPathOf(presPart)).values()) {
      if (!rel.external && /\/(commentAuthors|authors)$/.test(rel.type)) parts.add(resolvePartPath(presPart, rel.target));
    }
    if (parts.size === 0) ['ppt/commentAuthors.xml', 'ppt/authors.xml'].forEach((p) => parts.add(p));
    for (const part of parts) {
      const root = zip.has(part) ? readXmlPart(zip, part) : undefined;
      for (const author of root ? [...childElements(root, 'cmAuthor'), ...childElements(root, 'author')] : []) {
        const name = (author.attrs.name ?? '').trim();
        if (author.attrs.id !== undefined && name) this.names.set(author.attrs.id, name);
      }
    }
  }

  name(id: string | undefined): string | undefined {
    return id === undefined ? undefined : this.names.get(id);
  }
}

function bodyText(el: XmlElement | undefined): string {
  const txBody = firstChild(el, 'txBody');
  if (txBody) return childElements(txBody, 'p').map(paragraphText).filter(Boolean).join(' ');
  return textOf(firstChild(el, 'text')).replace(/\s+/g, ' ').trim();
}

function commentsOf(root: XmlElement, authors: CommentAuthors): SlideComment[] {
  const comments: SlideComment[] = [];
  for (const cm of childElements(root, 'cm')) {
    const text = bodyText(cm);
    if (text) comments.push({ author: authors.name(cm.attrs.authorId), text, reply: false });
    for (const reply of childElements(firstChild(cm, 'replyLst') ?? cm, 'reply')) {
      const replyText = bodyText(reply);
      if (replyText) comments.push({ author: authors.name(reply.attrs.authorId), text: replyText, reply: true });
    }
  }
  return comments;
}

/** The comments quote of a slide; none when it has no comments. */
export function readComments(
  zip: OfficeZip,
  slidePart: string,
  rels: Map<string, { target: string; type: string; external: boolean }>,
  authors: CommentAuthors,
): Quote | undefined {
  const comments: SlideComment[] = [];
  for (const rel of rels.values()) {
    if (rel.external || !rel.type.endsWith('/comments')) continue;
    const root = readXmlPart(zip, resolvePartPath(slidePart, rel.target));
    if (root) comments.push(...commentsOf(root, authors));
  }
  if (comments.length === 0) return undefined;
  return {
    type: 'quote',
    content: comments.map((c) => {
      const label = `${c.reply ? 'Reply' : 'Comment'}${c.author ? ` by ${c.author}` : ''}:`;
      return paragraph([text(label, { bold: true }), text(` ${c.text}`)]);
    }),
  };
}
