// Columns padded to their widest cell, the last one left as it is.
export function tableLines(header: string[], rows: string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => (r[c] ?? '').length)));
  return all.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]))).join('  ').trimEnd());
}
