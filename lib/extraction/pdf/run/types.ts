/** Types shared by the PDF extractor and its page threads (kept apart so neither imports the other). */
import type { Block } from '../layout/blocks';

/** One page's text layer, and whether it still needs OCR (decided, not yet run). */
export interface PageText {
  page: number;
  blocks: Block[];
  usable: boolean;
  needOcr: boolean;
  /** Why the page could not be read (it is then empty). */
  failure?: string;
}
