import { beforeAll, describe, expect, it } from 'vitest';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { chunkMarkdown, countTokens, EMBED_BATCH_SIZE, type Chunk, type ChunkingStrategy } from '@/lib/chunking';
import { chunkSource } from '@/lib/chunking/source';
import { sentenceSpans, tokenWindows } from '@/lib/chunking/text';
import { directMerge, heapMerge, tokenAtoms, warmUpTokenizer } from '@/lib/chunking/tokenizer';

// ---------------------------------------------------------------------------------------------
// helpers and fixtures

const fixed = (chunk_size: number, overlap = 0): ChunkingStrategy => ({ type: 'fixed', chunk_size, overlap });
const paragraph = (chunk_size: number): ChunkingStrategy => ({ type: 'paragraph', chunk_size, overlap: 0 });
const semantic = (chunk_size: number): ChunkingStrategy => ({ type: 'semantic', chunk_size, overlap: 0 });

/** Deterministic pseudo-random numbers. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const WORDS =
  'alpha beta gamma delta quarry extraction document token chunk section heading table river mountain policy network system value report summary'.split(
    ' ',
  );

function sentenceMaker(seed: number) {
  const rnd = rng(seed);
  return () => {
    const n = 6 + Math.floor(rnd() * 14);
    const w = Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]);
    w[0] = w[0][0].toUpperCase() + w[0].slice(1);
    return `${w.join(' ')}.`;
  };
}

function prose(sentences: number, seed = 1): string {
  const make = sentenceMaker(seed);
  return Array.from({ length: sentences }, make).join(' ');
}

/** Every chunk within the limit, counted exactly, numbered in order, non-empty, marker-free. */
function expectWellFormed(chunks: Chunk[], size: number) {
  chunks.forEach((c, i) => {
    expect(c.metadata.chunk_index).toBe(i);
    expect(c.content.trim()).toBe(c.content);
    expect(c.content.length).toBeGreaterThan(0);
    expect(c.tokenCount).toBe(countTokens(c.content));
    expect(c.tokenCount).toBeLessThanOrEqual(size);
    expect(c.content).not.toMatch(/<!--\s*page/i);
    expect(c.embedText).toBe(c.metadata.section ? `${c.metadata.section}\n\n${c.content}` : c.content);
  });
}

/** The longest suffix of `a` that is a prefix of `b`. */
function sharedText(a: string, b: string): string {
  for (let k = Math.min(a.length, b.length); k > 0; k--) {
    if (a.endsWith(b.slice(0, k))) return b.slice(0, k);
  }
  return '';
}

const oracle = new Tiktoken(cl100k);

beforeAll(() => {
  warmUpTokenizer();
});

// ---------------------------------------------------------------------------------------------

describe('countTokens (cl100k_base)', () => {
  it('matches known token counts', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('tiktoken is great!')).toBe(6);
    expect(countTokens('The quick brown fox jumps over the lazy dog.')).toBe(10);
    expect(countTokens('Quarry chunks Markdown.')).toBe(5);
    expect(countTokens('你好，世界！')).toBe(7);
    expect(countTokens('日本語の文章です。')).toBe(8);
    expect(countTokens('| a | b |\n| --- | --- |')).toBe(10);
    // Special-token text is counted as plain text, never rejected.
    expect(countTokens('<|endoftext|>')).toBe(7);
  });

  it("agrees with js-tiktoken's own encoder on varied text", () => {
    const samples = [
      'Ünïcödé façade — naïve “quotes” 🎉👍🏽 and emoji sequences 👨‍👩‍👧',
      '  leading\n\n\ttabs   and   spaces  \n\n\n',
      "It's we'll they've I'M don't 12345678 3.14159 1,000,000",
      'antidisestablishmentarianism supercalifragilisticexpialidocious',
      '这是一个测试句子用于检查分词器的性能这是一个测试句子用于检查分词器的性能这是一个测试句子', // one long piece
      'ขอบคุณมากครับ ภาษาไทยไม่มีช่องว่างระหว่างคำ',
      '한국어 텍스트도 있습니다. 띄어쓰기가 있어요.',
      '```ts\nconst x: Record<string, number> = { a: 1 };\n```\n| h1 | h2 |\n|:--|--:|\n| x | y |',
      prose(30, 5),
    ];
    for (const s of samples) expect(countTokens(s), s).toBe(oracle.encode(s, [], []).length);
  });

  it('heap-based merge gives the same tokens as the reference merge', () => {
    const rnd = rng(42);
    const alphabet = 'abcdefghijklmnopqrstuvwxyzéü你好世界日本語の';
    const enc = new TextEncoder();
    for (let t = 0; t < 200; t++) {
      const len = 1 + Math.floor(rnd() * 60);
      let s = '';
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
      const bytes = String.fromCharCode(...enc.encode(s));
      expect(heapMerge(bytes), s).toEqual(directMerge(bytes));
    }
  });

  it('counts a long unbroken CJK run quickly and splits it into whole characters', () => {
    const run = '这是一个测试句子用于检查分词器的性能'.repeat(2000); // 36,000 chars, one pre-token piece
    const started = Date.now();
    const n = countTokens(run);
    expect(Date.now() - started).toBeLessThan(5_000); // js-tiktoken alone takes minutes here
    expect(n).toBeGreaterThan(run.length / 2);
    const atoms = tokenAtoms(run);
    let total = 0;
    for (let i = 0; i < atoms.length; i++) total += atoms.tokens[i];
    expect(total).toBe(n);
    expect(atoms.ends[atoms.length - 1]).toBe(run.length);
  });
});

describe('strategy validation', () => {
  it('rejects chunk_size and overlap outside the allowed ranges', async () => {
    await expect(chunkMarkdown('x', fixed(63))).rejects.toThrow(/chunk_size/);
    await expect(chunkMarkdown('x', fixed(8193))).rejects.toThrow(/chunk_size/);
    await expect(chunkMarkdown('x', fixed(100.5))).rejects.toThrow(/chunk_size/);
    await expect(chunkMarkdown('x', fixed(100, -1))).rejects.toThrow(/overlap/);
    await expect(chunkMarkdown('x', fixed(100, 100))).rejects.toThrow(/overlap/);
    await expect(chunkMarkdown('x', { type: 'words' as 'fixed', chunk_size: 100, overlap: 0 })).rejects.toThrow(/type/);
    await expect(chunkMarkdown('x', fixed(64, 63))).resolves.toHaveLength(1);
    await expect(chunkMarkdown('x', fixed(8192))).resolves.toHaveLength(1);
  });

  it('semantic requires an embed function', async () => {
    await expect(chunkMarkdown('Some text.', semantic(128))).rejects.toThrow(/embed function/);
  });

  it('returns no chunks for empty or marker-only documents', async () => {
    for (const s of [fixed(64, 8), paragraph(64)]) {
      expect(await chunkMarkdown('', s)).toEqual([]);
      expect(await chunkMarkdown('  \n\n \t\n', s)).toEqual([]);
      expect(await chunkMarkdown('<!-- page 1 -->\n\n<!-- page 2 -->\n', s)).toEqual([]);
    }
    expect(await chunkMarkdown('<!-- page 1 -->', semantic(64), { embed: async (t) => t.map(() => [1]) })).toEqual([]);
  });
});

describe('fixed', () => {
  const text = [prose(40, 1), prose(40, 2), prose(40, 3)].join('\n\n');

  it('keeps windows within chunk_size, cut at sentence ends, with the overlap shared', async () => {
    const size = 64;
    const overlap = 16;
    const chunks = await chunkMarkdown(text, fixed(size, overlap));
    expect(chunks.length).toBeGreaterThan(countTokens(text) / size);
    expectWellFormed(chunks, size);
    for (let i = 0; i + 1 < chunks.length; i++) {
      // Short sentences: there is always a sentence end in the second half of a window.
      expect(chunks[i].content).toMatch(/\.$/);
      const shared = sharedText(chunks[i].content, chunks[i + 1].content);
      expect(shared.length).toBeGreaterThan(0);
      // The text itself is plain words here, so the shared text re-counts to the overlap.
      expect(Math.abs(countTokens(shared.trim()) - overlap)).toBeLessThanOrEqual(1);
    }
    // Every sentence of the source is in some chunk.
    const all = chunks.map((c) => c.content).join('\n');
    for (const sentence of text.split(/(?<=\.)\s+/)) expect(all).toContain(sentence);
  });

  it('shares exactly `overlap` tokens between consecutive windows', () => {
    for (const overlap of [1, 10, 32, 48, 63]) {
      const windows = tokenWindows(text, { budget: () => 64, overlap });
      expect(windows.length).toBeGreaterThan(3);
      for (const w of windows.slice(1)) {
        if (overlap < 63) expect(w.overlapTokens).toBe(overlap);
        // At overlap = chunk_size - 1 a window whose trimmed text re-counts one token higher
        // (" quarry" is 1 token, "quarry" 2) holds 63 tokens, and the next must still move on.
        else expect(w.overlapTokens).toBeGreaterThanOrEqual(62);
      }
      for (const w of windows) expect(w.tokens).toBeLessThanOrEqual(64);
      // Progress is made even when the overlap is chunk_size - 1.
      for (let i = 1; i < windows.length; i++) expect(windows[i].start).toBeGreaterThan(windows[i - 1].start);
    }
  });

  it('without overlap, the chunks partition the text word for word', async () => {
    const chunks = await chunkMarkdown(text, fixed(100));
    expectWellFormed(chunks, 100);
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    expect(chunks.flatMap((c) => words(c.content))).toEqual(words(text));
  });

  it('cuts a sentence longer than a window at a word boundary', async () => {
    const long = Array.from({ length: 300 }, (_, i) => WORDS[i % WORDS.length]).join(' ');
    const chunks = await chunkMarkdown(long, fixed(64, 8));
    expectWellFormed(chunks, 64);
    const vocabulary = new Set(WORDS);
    for (const c of chunks) {
      for (const w of c.content.split(' ')) expect(vocabulary.has(w), w).toBe(true);
    }
  });

  it('prefers cutting before a heading', async () => {
    const md = `# One\n\n${prose(6, 9)}\n\n# Two\n\n${prose(30, 10)}`;
    const first = countTokens(`# One\n\n${prose(6, 9)}`);
    expect(first).toBeGreaterThan(64); // the first window can reach the heading ...
    expect(first).toBeLessThan(128); // ... and the heading is in its second half
    const chunks = await chunkMarkdown(md, fixed(128));
    expect(chunks[0].content).toBe(`# One\n\n${prose(6, 9)}`);
    expect(chunks[1].content.startsWith('# Two')).toBe(true);
    expect(chunks[1].metadata.section).toBe('Two');
  });
});

describe('CJK text without spaces', () => {
  const sentences = Array.from({ length: 120 }, (_, i) =>
    i % 3 === 0 ? `第${i}句话讲的是文档提取服务如何处理表格和图片，然后把结果写成标记语言。` : i % 3 === 1 ? `知识库会把文本切成块并建立向量索引！` : `搜索的时候系统会比较向量的相似度吗？`,
  );
  const text = sentences.join('');

  it('fixed: chunks end at CJK sentence punctuation and cover the text exactly', async () => {
    const chunks = await chunkMarkdown(text, fixed(64));
    expectWellFormed(chunks, 64);
    expect(chunks.length).toBeGreaterThan(countTokens(text) / 64);
    expect(chunks.map((c) => c.content).join('')).toBe(text);
    for (const c of chunks.slice(0, -1)) expect(c.content).toMatch(/[。！？]$/);
  });

  it('fixed with overlap on an unbroken run (no punctuation at all)', async () => {
    const run = '数据提取知识库向量检索分块策略'.repeat(300);
    const chunks = await chunkMarkdown(run, fixed(64, 16));
    expectWellFormed(chunks, 64);
    for (let i = 0; i + 1 < chunks.length; i++) {
      expect(sharedText(chunks[i].content, chunks[i + 1].content).length).toBeGreaterThan(0);
    }
    const plain = await chunkMarkdown(run, fixed(64));
    expect(plain.map((c) => c.content).join('')).toBe(run);
  });

  it('paragraph: an oversized CJK paragraph is split at sentence ends', async () => {
    const chunks = await chunkMarkdown(`# 简介\n\n${text}`, paragraph(128));
    expectWellFormed(chunks, 128);
    expect(chunks[0].content.startsWith('# 简介\n\n')).toBe(true);
    expect(chunks.map((c) => c.content).join('').replace('# 简介\n\n', '')).toBe(text);
    for (const c of chunks) expect(c.metadata.section).toBe('简介');
    for (const c of chunks.slice(0, -1)) expect(c.content).toMatch(/[。！？]$/);
  });

  it('sentence splitting handles 。！？ without spaces', () => {
    const spans = sentenceSpans('第一句。第二句！第三句？最后');
    expect(spans.map((s) => '第一句。第二句！第三句？最后'.slice(s.start, s.end))).toEqual(['第一句。', '第二句！', '第三句？', '最后']);
  });
});

describe('paragraph', () => {
  it('packs whole blocks and starts a new chunk at each heading', async () => {
    const md = [
      '# Intro',
      'Short opening paragraph.',
      'Another short paragraph.',
      '## Details',
      '- one\n- two\n- three',
      'Closing words.',
    ].join('\n\n');
    const chunks = await chunkMarkdown(md, paragraph(256));
    expectWellFormed(chunks, 256);
    expect(chunks.map((c) => c.content)).toEqual([
      '# Intro\n\nShort opening paragraph.\n\nAnother short paragraph.',
      '## Details\n\n- one\n- two\n- three\n\nClosing words.',
    ]);
    expect(chunks.map((c) => c.metadata.section)).toEqual(['Intro', 'Intro > Details']);
    expect(chunks[1].embedText).toBe(`Intro > Details\n\n${chunks[1].content}`);
  });

  it('keeps consecutive headings with the content that follows them', async () => {
    const md = `# Guide\n\n## Setup\n\n${prose(3, 4)}`;
    const chunks = await chunkMarkdown(md, paragraph(256));
    expect(chunks).toHaveLength(1);
    expect(chunks[0].content).toBe(md);
    expect(chunks[0].metadata.section).toBe('Guide > Setup');
  });

  it('never leaves a heading alone when a big block follows it', async () => {
    const md = `## Numbers\n\n${prose(40, 8)}\n\n## Next\n\nEnd.`;
    const chunks = await chunkMarkdown(md, paragraph(64));
    expectWellFormed(chunks, 64);
    expect(chunks[0].content.startsWith('## Numbers\n\n')).toBe(true);
    expect(chunks[0].content.length).toBeGreaterThan('## Numbers\n\n'.length + 20);
    for (const c of chunks) expect(c.content).not.toMatch(/^(#+ [^\n]*\s*)+$/);
    expect(chunks[chunks.length - 1].content).toBe('## Next\n\nEnd.');
  });

  it('splits an oversized paragraph at sentence ends', async () => {
    const text = prose(60, 12);
    const chunks = await chunkMarkdown(text, paragraph(100));
    expectWellFormed(chunks, 100);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.content).toMatch(/^[A-Z].*\.$/s);
    expect(chunks.map((c) => c.content).join(' ')).toBe(text);
  });

  it('splits a table only between rows and repeats the header rows', async () => {
    const header = '| Id | Name | Description |\n| ---: | :--- | --- |';
    const make = sentenceMaker(3);
    const rows = Array.from({ length: 40 }, (_, i) => `| ${i} | item ${i} | ${make()} |`);
    const md = `# Data\n\nIntro line.\n\n${header}\n${rows.join('\n')}\n\nAfter the table.`;
    const chunks = await chunkMarkdown(md, paragraph(128));
    expectWellFormed(chunks, 128);
    const tableChunks = chunks.filter((c) => c.content.includes('| Id | Name |'));
    expect(tableChunks.length).toBeGreaterThan(2);
    const seen: string[] = [];
    for (const c of tableChunks) {
      const start = c.content.indexOf(header);
      expect(start).toBeGreaterThanOrEqual(0);
      const lines = c.content.slice(start + header.length + 1).split('\n');
      for (const line of lines) {
        if (!line.startsWith('|')) break; // text after the table
        expect(rows).toContain(line); // an intact row
        seen.push(line);
      }
    }
    expect(seen).toEqual(rows); // all rows, in order, none twice
    expect(tableChunks.every((c) => c.metadata.section === 'Data')).toBe(true);
    expect(chunks[0].content.startsWith('# Data\n\nIntro line.\n\n| Id')).toBe(true);
  });

  it('does not start a table part without its header to fill the previous chunk', async () => {
    const header = '| Id | Name | Description |\n| ---: | :--- | --- |';
    const rows = Array.from({ length: 12 }, (_, i) => `| ${i} | item ${i} | this row describes the item number ${i} in plain words for testing |`);
    let intro = 'Intro words go here and keep going.';
    while (countTokens(intro) < 88) intro += ' More words.';
    // 128 - 89 leaves room for a part, but not for the header plus one 22-token row.
    const chunks = await chunkMarkdown(`${intro}\n\n${header}\n${rows.join('\n')}`, paragraph(128));
    expectWellFormed(chunks, 128);
    expect(chunks[0].content).toBe(intro);
    for (const c of chunks.slice(1)) expect(c.content.startsWith(`${header}\n| `)).toBe(true);
    expect(chunks.slice(1).flatMap((c) => c.content.split('\n').slice(2))).toEqual(rows);
  });

  it('keeps a fenced code block whole when it fits, even with # lines inside', async () => {
    const code = '```python\n# a comment, not a heading\ndef f(x):\n    return x * 2\n```';
    const md = `## Code\n\n${prose(2, 1)}\n\n${code}\n\n${prose(2, 2)}`;
    const chunks = await chunkMarkdown(md, paragraph(64));
    expectWellFormed(chunks, 64);
    expect(chunks.some((c) => c.content.includes(code))).toBe(true);
    expect(chunks.every((c) => c.metadata.section === 'Code')).toBe(true);
  });

  it('splits an oversized code block by lines and re-fences every part', async () => {
    const lines = Array.from({ length: 80 }, (_, i) => `    result_${i} = compute(${i}, "${WORDS[i % WORDS.length]}")`);
    const md = `Before.\n\n\`\`\`python\n${lines.join('\n')}\n\`\`\`\n\nAfter.`;
    const chunks = await chunkMarkdown(md, paragraph(96));
    expectWellFormed(chunks, 96);
    const codeChunks = chunks.filter((c) => c.content.includes('result_'));
    expect(codeChunks.length).toBeGreaterThan(3);
    const inner: string[] = [];
    for (const c of codeChunks) {
      const m = /```python\n([\s\S]*?)\n```/.exec(c.content);
      expect(m).not.toBeNull();
      // Exactly one complete fence per part.
      expect(c.content.match(/```/g)).toHaveLength(2);
      inner.push(...(m as RegExpExecArray)[1].split('\n'));
    }
    expect(inner).toEqual(lines);
  });

  it('splits an oversized list between items', async () => {
    const make = sentenceMaker(21);
    // Each nested item is indented to its parent item's text (CommonMark: "10. " needs four columns).
    const items = Array.from({ length: 30 }, (_, i) => `${i + 1}. ${make()}\n${' '.repeat(String(i + 1).length + 2)}- detail of item ${i + 1}`);
    const chunks = await chunkMarkdown(items.join('\n'), paragraph(80));
    expectWellFormed(chunks, 80);
    expect(chunks.length).toBeGreaterThan(2);
    const got = chunks.flatMap((c) => c.content.split(/\n(?=\d+\. )/));
    expect(got).toEqual(items);
  });
});

describe('page and section metadata', () => {
  const doc = [
    'Cover text before the first marker.',
    '<!-- page 1 -->',
    '# Annual Report',
    'Opening remarks on page one.',
    '## Finance',
    'Revenue grew this year.',
    '<!-- page 2 -->',
    'Costs were stable on page two.',
    '### Details',
    '| Item | Cost |\n| --- | --- |\n| Rent | 10 |',
    '<!-- page 3 -->',
    '## Outlook',
    '```\n# shell comment, not a heading\n```',
    'Next year looks good.',
    '# Appendix \\#1 ##',
    'Page three closing.',
  ].join('\n\n');

  it('paragraph: page where each chunk starts, heading path, markers removed', async () => {
    const chunks = await chunkMarkdown(doc, paragraph(256));
    expectWellFormed(chunks, 256);
    expect(chunks.map((c) => [c.content.split('\n')[0], c.metadata.page, c.metadata.section])).toEqual([
      ['Cover text before the first marker.', 1, null],
      ['# Annual Report', 1, 'Annual Report'],
      ['## Finance', 1, 'Annual Report > Finance'], // spans pages 1-2: its first page
      ['### Details', 2, 'Annual Report > Finance > Details'],
      ['## Outlook', 3, 'Annual Report > Outlook'],
      ['# Appendix \\#1 ##', 3, 'Appendix #1'],
    ]);
    expect(chunks[2].content).toBe('## Finance\n\nRevenue grew this year.\n\nCosts were stable on page two.');
    expect(chunks[4].content).toContain('# shell comment, not a heading');
    expect(chunks[0].embedText).toBe('Cover text before the first marker.');
    expect(chunks[3].embedText.startsWith('Annual Report > Finance > Details\n\n### Details')).toBe(true);
  });

  it('fixed and semantic report the same pages and sections', async () => {
    const embed = async (texts: string[]) => texts.map(() => [1, 0]);
    for (const chunks of [await chunkMarkdown(doc, fixed(64)), await chunkMarkdown(doc, semantic(64), { embed })]) {
      expectWellFormed(chunks, 64);
      for (const c of chunks) {
        const at = (s: string) => c.content.includes(s);
        if (at('Cover text')) expect(c.metadata).toMatchObject({ page: 1, section: null });
        if (c.content.startsWith('Costs were stable')) expect(c.metadata).toMatchObject({ page: 2, section: 'Annual Report > Finance' });
        if (c.content.startsWith('## Outlook')) expect(c.metadata).toMatchObject({ page: 3, section: 'Annual Report > Outlook' });
        if (c.content.startsWith('Page three closing')) expect(c.metadata).toMatchObject({ page: 3, section: 'Appendix #1' });
      }
    }
  });

  it('page is null throughout a document without markers', async () => {
    const chunks = await chunkMarkdown(`# A\n\n${prose(40, 6)}\n\n## B\n\ntext`, paragraph(64));
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((c) => c.metadata.page === null)).toBe(true);
    expect(chunks[chunks.length - 1].metadata.section).toBe('A > B');
  });

  it('parser: markers removed, page offsets recorded, setext headings read', () => {
    const parsed = chunkSource('<!-- page 1 -->\n\nTitle\n=====\n\ntext\n\n<!-- page 2 -->\n\nSub\n---\n\nmore\r\n');
    expect(parsed.text).not.toContain('<!--');
    expect(parsed.pages.map((p) => [parsed.text.slice(p.offset).trimStart().split('\n')[0], p.page])).toEqual([
      ['Title', 1],
      ['Sub', 2],
    ]);
    expect(parsed.sections.map((s) => s.path)).toEqual(['Title', 'Title > Sub']);
    expect(parsed.blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'heading', 'paragraph']);
  });
});

describe('semantic', () => {
  const cats = [
    'Cats sleep for most of the day.',
    'A cat grooms its fur with a rough tongue.',
    'Kittens learn to hunt by playing.',
    'Domestic cats still keep sharp claws.',
    'Many cats enjoy sitting in boxes.',
    'The cat purrs when it is content.',
  ];
  const rockets = [
    'Rockets carry satellites into orbit.',
    'A rocket engine burns fuel with oxidizer.',
    'Reusable boosters land back on pads.',
    'Orbital launches need great velocity.',
    'Staging drops empty tanks during ascent.',
    'The rocket reached space in nine minutes.',
  ];
  const topic = (s: string) => (/cat|kitten|claws|boxes|purrs/i.test(s) ? [1, 0.05, 0] : [0.05, 1, 0]);

  it('starts a new chunk where the topic changes', async () => {
    const calls: string[][] = [];
    const embed = async (texts: string[]) => {
      calls.push(texts);
      return texts.map(topic);
    };
    const chunks = await chunkMarkdown([...cats, ...rockets].join(' '), semantic(512), { embed });
    expectWellFormed(chunks, 512);
    expect(chunks.map((c) => c.content)).toEqual([cats.join(' '), rockets.join(' ')]);
    expect(calls.flat()).toEqual([...cats, ...rockets]); // one text per sentence, in order
  });

  it('separates the topics even when they interleave across paragraphs', async () => {
    const md = [cats.slice(0, 3).join(' '), rockets.slice(0, 3).join(' '), cats.slice(3).join(' ')].join('\n\n');
    const chunks = await chunkMarkdown(md, semantic(512), { embed: async (t) => t.map(topic) });
    expect(chunks.map((c) => c.content)).toEqual([cats.slice(0, 3).join(' '), rockets.slice(0, 3).join(' '), cats.slice(3).join(' ')]);
  });

  it('is bounded by chunk_size and embeds in batches', async () => {
    const sentences = Array.from({ length: 150 }, (_, i) => `${cats[i % cats.length].slice(0, -1)} number ${i}.`);
    const batches: number[] = [];
    const chunks = await chunkMarkdown(sentences.join(' '), semantic(64), {
      embed: async (texts) => {
        batches.push(texts.length);
        return texts.map(() => [1, 0, 0]);
      },
    });
    expectWellFormed(chunks, 64);
    expect(chunks.length).toBeGreaterThan(5);
    expect(batches).toEqual([EMBED_BATCH_SIZE, EMBED_BATCH_SIZE, 150 - 2 * EMBED_BATCH_SIZE]);
    expect(chunks.map((c) => c.content).join(' ')).toBe(sentences.join(' '));
  });

  it('groups CJK sentences by topic', async () => {
    const a = ['猫喜欢睡觉。', '小猫喜欢玩毛线球！', '猫的爪子很锋利。'];
    const b = ['火箭把卫星送入轨道。', '火箭发动机燃烧燃料？', '助推器可以回收。'];
    const chunks = await chunkMarkdown([...a, ...b].join(''), semantic(256), {
      embed: async (t) => t.map((s) => (s.includes('猫') ? [1, 0] : [0, 1])),
    });
    expect(chunks.map((c) => c.content)).toEqual([a.join(''), b.join('')]);
  });

  it('rejects an embed function that returns the wrong number of vectors', async () => {
    await expect(chunkMarkdown('The first sentence. The second sentence.', semantic(64), { embed: async () => [[1]] })).rejects.toThrow(/vectors/);
  });
});

describe('generated documents (seeded)', () => {
  const fragments = [
    '# Title', '## Sub section', '###### deep', '#', '```', '```js', '~~~', '    indented code', '| a | b |', '| --- | --- |',
    '|x|y|z|', '| only | row |', '- item', '  - nested item', '1. first', '2) second', '> quote line', '---', '***', '', '', '',
    '<!-- page 3 -->', '<!-- page 4 -->', '这是一个测试句子，用于检查分词器的性能。', '数据提取知识库向量检索分块策略'.repeat(40),
    `https://example.com/${'a'.repeat(600)}`, '🎉👍🏽'.repeat(50), 'Plain sentence here. And another one! Really? Yes.',
    'word '.repeat(200), 'Title\n=====', 'ส'.repeat(300), '\t\t', `| ${'cell | '.repeat(80)}`,
  ];

  it('every strategy keeps every chunk within size and loses no text', async () => {
    for (let t = 0; t < 60; t++) {
      const rnd = rng(t + 1);
      const md = Array.from({ length: 5 + Math.floor(rnd() * 80) }, () => fragments[Math.floor(rnd() * fragments.length)]).join('\n');
      const source = md
        .split('\n')
        .filter((l) => !/^\s*<!--\s*page/.test(l))
        .join('')
        .replace(/\s+/g, '');
      for (const type of ['fixed', 'paragraph', 'semantic'] as const) {
        const size = [64, 80, 128][t % 3];
        const overlap = type === 'fixed' && t % 2 === 1 ? Math.floor(rnd() * size) : 0;
        const chunks = await chunkMarkdown(md, { type, chunk_size: size, overlap }, { embed: async (ts) => ts.map((x) => [x.length % 3, 1]) });
        expectWellFormed(chunks, size);
        const got = chunks.map((c) => c.content).join('').replace(/\s+/g, '');
        if (type === 'fixed' && overlap === 0) expect(got).toBe(source);
        // Repeated table headers and re-fencing only add text: the source is a subsequence.
        let j = 0;
        for (let k = 0; k < got.length && j < source.length; k++) if (got[k] === source[j]) j++;
        expect(j, `seed ${t} ${type}`).toBe(source.length);
      }
    }
  });
});

describe('large documents', () => {
  /** About 1 MB of mixed Markdown, with page markers, headings, lists, tables and code. */
  function bigDocument(): { md: string; pages: number } {
    const rnd = rng(2024);
    const make = sentenceMaker(99);
    const parts: string[] = ['<!-- page 1 -->', 'Page 1 begins here.'];
    let page = 1;
    let length = 0;
    while (length < 1_000_000) {
      const r = rnd();
      let s: string;
      if (r < 0.03) s = `<!-- page ${++page} -->\n\nPage ${page} begins here.`;
      else if (r < 0.08) s = `${'#'.repeat(1 + Math.floor(rnd() * 3))} Heading ${parts.length}`;
      else if (r < 0.12) s = Array.from({ length: 3 + Math.floor(rnd() * 6) }, () => `- ${make()}`).join('\n');
      else if (r < 0.14)
        s = ['| A | B | C |', '| --- | --- | --- |', ...Array.from({ length: 5 + Math.floor(rnd() * 60) }, (_, i) => `| ${i} | ${WORDS[i % WORDS.length]} | ${make()} |`)].join('\n');
      else if (r < 0.16) s = ['```js', ...Array.from({ length: 3 + Math.floor(rnd() * 80) }, (_, i) => `const v${i} = "${WORDS[i % WORDS.length]}";`), '```'].join('\n');
      else s = Array.from({ length: 1 + Math.floor(rnd() * 8) }, make).join(' ');
      parts.push(s);
      length += s.length + 2;
    }
    return { md: parts.join('\n\n'), pages: page };
  }

  const { md, pages } = bigDocument();

  function expectDocumentStructure(chunks: Chunk[], size: number) {
    expectWellFormed(chunks, size);
    let lastPage = 0;
    let checked = 0;
    for (const c of chunks) {
      const page = c.metadata.page as number;
      expect(page).toBeGreaterThanOrEqual(lastPage);
      lastPage = page;
      // Each page opens with "Page N begins here.": a chunk starting with it is on page N, a
      // chunk that reaches it from before started on page N - 1.
      const m = /Page (\d+) begins here\./.exec(c.content);
      if (m) {
        expect(page).toBe(m.index === 0 ? Number(m[1]) : Number(m[1]) - 1);
        checked++;
      }
    }
    expect(lastPage).toBe(pages);
    expect(checked).toBeGreaterThan(pages * 0.9);
    expect(chunks.filter((c) => c.metadata.section === null).length).toBeLessThan(5);
  }

  it('paragraph over ~1 MB', async () => {
    expect(md.length).toBeGreaterThanOrEqual(1_000_000);
    const chunks = await chunkMarkdown(md, paragraph(256));
    expectDocumentStructure(chunks, 256);
    // Nothing lost: without overlap the chunks hold (nearly) all the text.
    const contentLength = chunks.reduce((sum, c) => sum + c.content.length, 0);
    expect(contentLength).toBeGreaterThan(md.length * 0.95);
    // Every split table part starts with its header; every code part is a closed fence.
    for (const c of chunks) {
      for (const block of c.content.split('\n\n')) {
        if (block.startsWith('| ')) expect(block.startsWith('| A | B | C |\n| --- | --- | --- |')).toBe(true);
        if (block.startsWith('```')) expect(block.endsWith('```')).toBe(true);
      }
    }
  });

  it('fixed over ~1 MB', async () => {
    const chunks = await chunkMarkdown(md, fixed(512, 64));
    expectDocumentStructure(chunks, 512);
    expect(chunks.length).toBeGreaterThan(countTokens(md) / 512);
  });

  it('semantic over ~1 MB', async () => {
    let embedded = 0;
    const chunks = await chunkMarkdown(md, semantic(256), {
      embed: async (texts) => {
        embedded += texts.length;
        return texts.map((t) => [1, t.length % 5, t.includes('|') ? 3 : 0]);
      },
    });
    expectDocumentStructure(chunks, 256);
    expect(embedded).toBeGreaterThan(5_000);
  });
});
