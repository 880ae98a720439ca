import type { Span } from './types';

/** Where the Markdown's lines start (split as markdown-pieces.ts splits them: at CRLF, CR or LF). */
export class LineStarts {
  private readonly starts: number[] = [0];
  private readonly ends: number[] = [];

  constructor(private readonly text: string) {
    for (const m of text.matchAll(/\r\n|\r|\n/g)) {
      this.ends.push(m.index);
      this.starts.push(m.index + m[0].length);
    }
    this.ends.push(text.length);
  }

  /** Lines `first` to `last`, from the first non-blank character to just after the last. */
  span(first: number, last: number): Span {
    const a = Math.min(first, this.starts.length - 1);
    const b = Math.max(a, Math.min(last, this.starts.length - 1));
    let start = this.starts[a];
    let end = this.ends[b];
    while (start < end && (this.text[start] === ' ' || this.text[start] === '\t')) start++;
    while (end > start && /[ \t]/.test(this.text[end - 1])) end--;
    return [start, end];
  }
}

