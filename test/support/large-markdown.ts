/**
 * A large, deterministic Markdown document for load tests: numbered sections of prose with a
 * heading each, now and then a list or a table, over a vocabulary of tens of thousands of
 * made-up words with a Zipf-like spread (so the keyword statistics have the many rare terms of a
 * real document, not a handful of repeated ones).
 */
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'sto', 'ba', 'ti', 'vor', 'nel', 'qua', 'dri', 'po', 'sen', 'tar', 'gu', 'fel'];

function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function vocabulary(size: number): string[] {
  const words: string[] = [];
  for (let i = 0; words.length < size; i++) {
    let n = i;
    let word = '';
    do {
      word += SYLLABLES[n % SYLLABLES.length];
      n = Math.floor(n / SYLLABLES.length);
    } while (n > 0);
    words.push(word);
  }
  return words;
}

/** The `## Section n` heading of every section, so callers can search for one. */
export function sectionHeading(n: number): string {
  return `## Section ${n}`;
}

export interface LargeMarkdownOptions {
  /** Typical size of a section (a heading and what follows it); a section is at least a heading and a paragraph. */
  sectionBytes?: number;
  seed?: number;
}

/** About `bytes` bytes of Markdown (ASCII, so characters and bytes agree). */
export function largeMarkdown(bytes: number, options: LargeMarkdownOptions = {}): string {
  const { sectionBytes = 200, seed = 7 } = options;
  const random = randomSource(seed);
  const words = vocabulary(40_000);
  // Cubing a uniform number favours the first words: a few are everywhere, most are rare.
  const word = () => words[Math.floor(random() ** 3 * words.length)];
  const sentence = () => {
    const text = Array.from({ length: 5 + Math.floor(random() * 10) }, word).join(' ');
    return `${text[0].toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = () => Array.from({ length: 1 + Math.floor(random() * 3) }, sentence).join(' ');
  const parts: string[] = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const blocks = [sectionHeading(n), paragraph()];
    const shape = random();
    if (shape < 0.1) blocks.push(Array.from({ length: 3 }, () => `- ${sentence()}`).join('\n'));
    else if (shape < 0.15) blocks.push(`| term | value |\n| --- | --- |\n| ${word()} | ${n} |\n| ${word()} | ${word()} |`);
    const target = sectionBytes * (0.5 + random());
    for (let length = blocks.join('\n\n').length; length < target; ) {
      const next = paragraph();
      blocks.push(next);
      length += next.length + 2;
    }
    const part = `${blocks.join('\n\n')}\n\n`;
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}
