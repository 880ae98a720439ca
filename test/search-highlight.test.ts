import { describe, expect, it } from 'vitest';
import { highlightParts, highlightTerms } from '@/components/search/highlight';
import { extractionHref, requestedPage, safeUrl } from '@/components/search/links';
import { previewMarkdown } from '@/components/search/preview';

/** The marked words of `text` for `query`, in order. */
const marked = (query: string, text: string) =>
  highlightParts(text, highlightTerms(query))
    .filter((p) => p.marked)
    .map((p) => p.text);

describe('highlighting searched words', () => {
  it('marks every form of a word by its stem', () => {
    expect(marked('running', 'I run daily. She runs too. Running is fun; we were running late.')).toEqual(['run', 'runs', 'Running', 'running']);
    expect(marked('indexes', 'Indexing a document; the index is ready.')).toEqual(['Indexing', 'index']);
    expect(marked('schooners', 'Every schooner was logged.')).toEqual(['schooner']);
  });

  it('never marks stop words, whether in the query or in the text', () => {
    expect(marked('the history of the arts', 'The history of art and the arts of history')).toEqual(['history', 'art', 'arts', 'history']);
    expect(marked('the and of', 'The art of war and peace')).toEqual([]);
    // "doing" is stemmed to "do", a stop word in the text: the text's "do" stays unmarked.
    expect(marked('doing', 'What do you do? Doing it.')).toEqual(['Doing']);
  });

  it('marks whole words only, never inside other words', () => {
    expect(marked('art', 'start smart artist art arts')).toEqual(['art', 'arts']);
    expect(marked('start', 'restart started startup')).toEqual(['started']);
    expect(marked('2024', 'In 2024, not 20245 nor 12024.')).toEqual(['2024']);
  });

  it('ignores case, also in accented, fullwidth and decomposed letters', () => {
    expect(marked('LANTERN', 'A lantern, two Lanterns, a LANTERN.')).toEqual(['lantern', 'Lanterns', 'LANTERN']);
    expect(marked('Café', 'CAFÉ or café, not cafe.')).toEqual(['CAFÉ', 'café']);
    expect(marked('café', 'cafe\u0301 crème')).toEqual(['cafe\u0301']);
    expect(marked('running', 'ＲＵＮＮＩＮＧ shoes')).toEqual(['ＲＵＮＮＩＮＧ']);
    expect(marked('straße', 'Die STRASSE und die Straße')).toEqual(['Straße']);
  });

  it('marks Chinese, Japanese and Korean words inside runs written without spaces', () => {
    expect(marked('机器学习', '我喜欢机器学习和数学')).toEqual(['机器学习']);
    expect(marked('学习', '机器学习很有趣')).toEqual(['学习']);
    expect(marked('東京', '東京に行きます。東京タワー')).toEqual(['東京', '東京']);
    expect(marked('학교', '학교에서 공부해요')).toEqual(['학교']);
    expect(marked('สวัสดี', 'คำว่าสวัสดีครับ')).toEqual(['สวัสดี']);
  });

  it('leaves out stop words of Chinese and Japanese, and splits words where the script changes', () => {
    expect(marked('猫的', '这是我的猫')).toEqual(['猫']);
    expect(marked('api', 'api接口 and APIs')).toEqual(['api', 'APIs']);
    expect(marked('接口', 'api接口')).toEqual(['接口']);
  });

  it('marks nothing for queries without words worth marking, and always gives the text back whole', () => {
    expect(marked("it's a", "It's a test")).toEqual([]);
    expect(marked('!!!', 'Nothing here')).toEqual([]);
    const text = 'Lighthouse keepers polish the brass lantern; 灯台守はランタンを磨く。';
    const parts = highlightParts(text, highlightTerms('keeper lantern ランタン'));
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expect(parts.filter((p) => p.marked).map((p) => p.text)).toEqual(['keepers', 'lantern', 'ランタン']);
    expect(highlightParts('', highlightTerms('x'))).toEqual([]);
  });
});

describe('links of search results', () => {
  it('keeps only web and email addresses', () => {
    expect(safeUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeUrl('http://example.com')).toBe('http://example.com/');
    expect(safeUrl('mailto:someone@example.com')).toBe('mailto:someone@example.com');
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', '/settings', '../files', '#top', 'file:///etc/passwd', '']) {
      expect(safeUrl(bad), bad).toBe('');
    }
  });

  it('opens an extraction at a page with the searched words, and reads the page back', () => {
    const href = extractionHref('ext_123', 3, 'brass & lantern');
    expect(href).toBe('/extractions/ext_123?page=3&q=brass+%26+lantern');
    expect(extractionHref('ext_123', null)).toBe('/extractions/ext_123');
    expect(requestedPage(href.split('?')[1], '')).toBe(3);
    expect(requestedPage('', '#page-7')).toBe(7);
    expect(requestedPage('?page=0', '#page-x')).toBeUndefined();
    expect(requestedPage('page=abc', '')).toBeUndefined();
  });
});

describe('previews of long passages', () => {
  it('cuts after whole blocks, else between lines, else between words', () => {
    expect(previewMarkdown('short', 10)).toEqual({ text: 'short', cut: false });
    expect(previewMarkdown('# Title\n\nFirst paragraph.\n\nSecond paragraph that is long.', 30)).toEqual({ text: '# Title\n\nFirst paragraph.', cut: true });
    expect(previewMarkdown('| a | b |\n| - | - |\n| 1 | 2 |\n| 3 | 4 |', 30)).toEqual({ text: '| a | b |\n| - | - |\n| 1 | 2 |', cut: true });
    expect(previewMarkdown('one two three four five six seven', 20)).toEqual({ text: 'one two three four…', cut: true });
  });
});
