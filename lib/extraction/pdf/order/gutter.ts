/**
 * Candidate gutters of the column analysis (columns.ts): stretches of the x axis that few
 * of a region's segments cross.
 */

/** A run of bins [start, end) that at most maxCross segments cover, and its least-covered stretch [least, leastEnd). */
export interface GutterGap {
  start: number;
  end: number;
  least: number;
  leastEnd: number;
}

/**
 * Where a gutter may run: the x axis from minX in `bins` bins of width `bw`, each covered by the
 * segments that reach into it; the runs of bins that at most maxCross segments cover, away from
 * both edges, each with the first stretch of its least-covered bins. Computed from the segments'
 * ends (sorted) as runs of equal coverage, not bin by bin: a page's 1,500 bins were walked for
 * every region the column analysis looked at.
 */
export function gutterGaps(segs: readonly { x0: number; x1: number }[], minX: number, bw: number, bins: number, maxCross: number): GutterGap[] {
  const n = segs.length;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    starts[i] = Math.max(0, Math.floor((segs[i].x0 - minX) / bw));
    ends[i] = Math.min(bins, Math.ceil((segs[i].x1 - minX) / bw));
  }
  starts.sort();
  ends.sort();
  // Runs of equal coverage: run k covers bins [from[k], from[k + 1]) (the last up to `bins`).
  const from: number[] = [];
  const cover: number[] = [];
  let i = 0;
  let j = 0;
  let acc = 0;
  let at = 0;
  const close = (to: number) => {
    if (to <= at) return;
    if (cover.length > 0 && cover[cover.length - 1] === acc) return;
    from.push(at);
    cover.push(acc);
  };
  for (;;) {
    const p = Math.min(i < n ? starts[i] : bins, j < n ? ends[j] : bins);
    if (p >= bins) break;
    close(p);
    while (i < n && starts[i] === p) (acc++, i++);
    while (j < n && ends[j] === p) (acc--, j++);
    at = p;
  }
  close(bins);
  const gaps: GutterGap[] = [];
  const runs = from.length;
  let k = 0;
  while (k < runs) {
    if (cover[k] > maxCross) {
      k++;
      continue;
    }
    const first = k;
    while (k < runs && cover[k] <= maxCross) k++;
    const start = from[first];
    const end = k < runs ? from[k] : bins;
    if (start === 0 || end >= bins - 1) continue; // page edge, not a gutter
    let least = first;
    for (let m = first + 1; m < k; m++) if (cover[m] < cover[least]) least = m;
    gaps.push({ start, end, least: from[least], leastEnd: least + 1 < runs ? from[least + 1] : bins });
  }
  return gaps;
}
