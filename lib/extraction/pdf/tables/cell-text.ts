/** What the text of a table cell reads as, for the table detectors (bordered.ts, borderless.ts). */

/** A cell that reads as a value: a number, an amount, a share, a dash. */
export function valueLike(text: string): boolean {
  const t = text.trim();
  if (/^[-–—]$|^n\.?a\.?$/i.test(t)) return true;
  return /\d/.test(t) && t.replace(/[\d\s.,%()$€£¥+\-−–*/:]/g, '').length <= 1;
}
