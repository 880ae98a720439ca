import { DOCUMENT_VERSION, type QuarryDocument } from './types';

/**
 * A document model as read back from storage (a JSON column): the model when it has this
 * version's shape at the top, null otherwise. Blocks are not checked one by one: what reads
 * them (chunking) checks the spans it uses and falls back to the Markdown when they do not fit.
 */
export function storedDocument(value: unknown): QuarryDocument | null {
  if (!value || typeof value !== 'object') return null;
  const doc = value as Partial<QuarryDocument>;
  if (doc.version !== DOCUMENT_VERSION || !Array.isArray(doc.blocks)) return null;
  return { version: DOCUMENT_VERSION, metadata: doc.metadata && typeof doc.metadata === 'object' ? doc.metadata : {}, blocks: doc.blocks };
}
