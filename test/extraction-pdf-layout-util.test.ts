import { describe, expect, it } from 'vitest';
import { gutterGaps } from '@/lib/extraction/pdf/order/gutter';
import { dominantSize, hasLetter, nonSpaceLength, sortedView, weighedSize } from '@/lib/extraction/pdf/layout/util';
import type { Run } from '@/lib/extraction/pdf/read/runs';
import { cleanText } from '@/lib/extraction/pdf/read/text';

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
    const next = random(11);
    const sizes = [9.96, 10, 10.1, 10.24, 12, 0, 14.5];
    const texts = ['', ' ', 'a', 'word', 'a longer run of text'];
    for (let trial = 0; trial < 2000; trial++) {
      const runs = Array.from({ length: Math.floor(next() * 6) }, () => run(texts[Math.floor(next() * texts.length)], sizes[Math.floor(next() * (trial % 2 ? 3 : sizes.length))]));
      expect(dominantSize(runs)).toBe(weighedSize(runs));
    }
  });

  it('cleanText removes and replaces what its two replacements always did', () => {
    const reference = (text: string) =>
      // eslint-disable-next-line no-control-regex
      text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/g, '').replace(/[\t\u00a0\u2000-\u200a\u202f\u205f\u3000]/g, (c) => (c === '\u3000' ? c : ' '));
    const pieces = ['a', 'Wort', ' ', '\t', '\n', '\r', '\u0000', '\u0007', '\u000b', '\u001f', '\u007f', '\ufffd', '\u00a0', '\u2009', '\u202f', '\u205f', '\u3000', '漢', '\u{1f600}', ''];
    for (const a of pieces) for (const b of pieces) for (const c of pieces) expect(cleanText(a + b + c)).toBe(reference(a + b + c));
  });

  it('nonSpaceLength and hasLetter count and find as the code point loop and the regular expression did', () => {
    const pieces = ['a', 'Ä', ' ', '\t', '\n', '\r', '\u00a0', '7', '漢', '\u{1d400}', '\u{1f600}', '\ud800', '\udc00', '-', ''];
    for (const a of pieces)
      for (const b of pieces)
        for (const c of pieces) {
          const text = a + b + c;
          let n = 0;
          for (const ch of text) if (ch !== ' ' && ch !== '\t' && ch !== '\n') n++;
          expect(nonSpaceLength(text), JSON.stringify(text)).toBe(n);
          expect(hasLetter(text), JSON.stringify(text)).toBe(/\p{L}/u.test(text));
        }
  });

  it('gutterGaps finds the runs a bin-by-bin coverage count finds', () => {
    // The coverage walked bin by bin, as the column analysis did before.
    const reference = (segs: { x0: number; x1: number }[], minX: number, bw: number, bins: number, maxCross: number) => {
      const diff = new Int32Array(bins + 1);
      for (const s of segs) {
        diff[Math.max(0, Math.floor((s.x0 - minX) / bw))]++;
        diff[Math.min(bins, Math.ceil((s.x1 - minX) / bw))]--;
      }
      const cover = new Int32Array(bins);
      let acc = 0;
      for (let b = 0; b < bins; b++) cover[b] = acc += diff[b];
      const gaps = [];
      let b = 0;
      while (b < bins) {
        if (cover[b] > maxCross) {
          b++;
          continue;
        }
        const start = b;
        while (b < bins && cover[b] <= maxCross) b++;
        const end = b;
        if (start === 0 || end >= bins - 1) continue;
        let min = Infinity;
        for (let k = start; k < end; k++) min = Math.min(min, cover[k]);
        let least = start;
        while (cover[least] !== min) least++;
        let leastEnd = least;
        while (leastEnd < end && cover[leastEnd] === min) leastEnd++;
        gaps.push({ start, end, least, leastEnd });
      }
      return gaps;
    };
    const next = random(23);
    let withGaps = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const width = 60 + next() * 3000;
      const n = 1 + Math.floor(next() * 30);
      const grid = trial % 2 === 0; // whole numbers: ends that meet and share bins
      const segs = Array.from({ length: n }, () => {
        const a = next() * width;
        const b = a + next() * width * (next() < 0.3 ? 0.9 : 0.3);
        return grid ? { x0: Math.round(a), x1: Math.round(b) } : { x0: a, x1: b };
      });
      const minX = Math.min(...segs.map((s) => s.x0));
      const span = Math.max(...segs.map((s) => s.x1)) - minX;
      const bw = Math.max(1, span / 1500);
      const bins = Math.ceil(span / bw) + 2;
      const maxCross = Math.floor(next() * 4);
      const expected = reference(segs, minX, bw, bins, maxCross);
      if (expected.length > 0) withGaps++;
      expect(gutterGaps(segs, minX, bw, bins, maxCross)).toEqual(expected);
    }
    expect(withGaps).toBeGreaterThan(500);
  });
});
