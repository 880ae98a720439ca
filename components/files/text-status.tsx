'use client';

import type { FileListItem } from '../api-types';
import { Badge } from '../ui';

/* Whether a file has been turned into text, in the words the Files page and the pickers use. */

export type LatestExtraction = FileListItem['latest_extraction'];

/** none: never read; working: being read now; ready: text to index; failed: the last reading failed. */
export type TextState = 'none' | 'working' | 'ready' | 'failed';

export function textState(latest: LatestExtraction): TextState {
  if (!latest) return 'none';
  if (latest.status === 'pending' || latest.status === 'processing') return 'working';
  return latest.status === 'completed' ? 'ready' : 'failed';
}

/** Whether a list still has files being turned into text, so it is worth asking again soon. */
export function anyWorking(items: FileListItem[] | undefined): boolean {
  return !!items?.some((f) => textState(f.latest_extraction) === 'working');
}

/** The state as a short phrase: "Turning into text… 40%". */
export function textStateWords(latest: LatestExtraction): string {
  switch (textState(latest)) {
    case 'none':
      return 'Not turned into text';
    case 'working':
      return `Turning into text… ${latest?.progress ?? 0}%`;
    case 'ready':
      return 'Text ready';
    default:
      return 'Could not be read';
  }
}

const TONES = { none: 'gray', working: 'blue', ready: 'green', failed: 'red' } as const;

/** The state as a coloured label (every tone keeps its text at 4.5:1 or more). */
export function TextStatus({ latest }: { latest: LatestExtraction }) {
  return <Badge tone={TONES[textState(latest)]}>{textStateWords(latest)}</Badge>;
}
