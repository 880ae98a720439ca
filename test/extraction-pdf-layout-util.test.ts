import { describe, expect, it } from 'vitest';
import { dominantSize, sortedView } from '@/lib/extraction/pdf/layout-util';
import type { Run } from '@/lib/extraction/pdf/runs';
import { cleanText } from '@/lib/extraction/pdf/text';

/** A small deterministic generator, so that a failure can be reproduced. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function run(text: string, size: number): Run {
  return { text, x0: 0, x1: 10, y: 0, size, bold: false, mono: false, monoGuess: false, rtl: false, space: !/\S/.test(text) };
}

describe('PDF layout helpers', () => {
  it('sortedView gives what a stable sort gives, the input itself when it is in order, and never changes the input', () => {
    const next = random(7);
    for (let trial = 0; trial < 500; trial++) {
      const items = Array.from({ length: Math.floor(next() * 12) }, (_, i) => ({ x0: Math.floor(next() * 5), i }));
      if (trial % 3 === 0) items.sort((a, b) => a.x0 - b.x0);
      const before = items.slice();
      const view = sortedView(items, (a, b) => a.x0 - b.x0);
      expect(view).toEqual(items.slice().sort((a, b) => a.x0 - b.x0));
      expect(items).toEqual(before);
      const ordered = items.every((it, k) => k === 0 || items[k - 1].x0 <= it.x0);
      expect(view === items).toBe(ordered);
    }
  });

  it('dominantSize weighs sizes as the map of rounded sizes does', () => {
    const reference = (runs: Run[]) => {
      const weight = new Map<number, number>();
      let best = 0;
      let bestW = -1;
      for (const r of runs) {
        if (r.space) continue;
        const key = Math.round(r.size * 2) / 2;
        const w = (weight.get(key) ?? 0) + Math.max(1, r.text.length);
        weight.set(key, w);
        if (w > bestW) {
          bestW = w;
          best = r.size;
        }
      }
      return best || runs[0]?.size || 10;
    };
    const next = random(11);
    const sizes = [9.96, 10, 10.1, 10.24, 12, 0, 14.5];
    const texts = ['', ' ', 'a', 'word', 'a longer run of text'];
    for (let trial = 0; trial < 2000; trial++) {
      const runs = Array.from({ length: Math.floor(next() * 6) }, () => run(texts[Math.floor(next() * texts.length)], sizes[Math.floor(next() * (trial % 2 ? 3 : sizes.length))]));
      expect(dominantSize(runs)).toBe(reference(runs));
    }
  });

  it('cleanText removes and replaces what its two replacements always did', () => {
    const reference = (text: string) =>
      // eslint-disable-next-line no-control-regex
      text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/g, '').replace(/[\t\u00a0\u2000-\u200a\u202f\u205f\u3000]/g, (c) => (c === '\u3000' ? c : ' '));
    const pieces = ['a', 'Wort', ' ', '\t', '\n', '\r', '\u0000', '\u0007', '\u000b', '\u001f', '\u007f', '\ufffd', '\u00a0', '\u2009', '\u202f', '\u205f', '\u3000', '漢', '\u{1f600}', ''];
    for (const a of pieces) for (const b of pieces) for (const c of pieces) expect(cleanText(a + b + c)).toBe(reference(a + b + c));
  });
});
