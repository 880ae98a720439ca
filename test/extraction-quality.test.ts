import { describe, expect, it } from 'vitest';
import { textSimilarity } from '@/lib/extraction/quality';
import { headingRecall, normalizeStructureText, parseMarkdownStructure, splitTableRow, tableCellF1 } from '@/lib/extraction/structure-quality';

describe('parseMarkdownStructure', () => {
  it('finds ATX headings and GFM tables, not inside code fences', () => {
    const md = [
      '# Title',
      '',
      '```',
      '# not a heading',
      '| a | b |',
      '| --- | --- |',
      '```',
      '',
      '## 1.2 Scope ##',
      '',
      '| Name | Value \\| unit |',
      '|:---|---:|',
      '| x | 1 |',
      '| y |  |',
      '',
      'text | with a pipe',
      '#hashtag is not a heading',
    ].join('\n');
    const s = parseMarkdownStructure(md);
    expect(s.headings).toEqual([
      { level: 1, text: 'Title' },
      { level: 2, text: '1.2 Scope' },
    ]);
    expect(s.tables).toEqual([
      [
        ['Name', 'Value | unit'],
        ['x', '1'],
        ['y', ''],
      ],
    ]);
  });

  it('splits rows with and without outer pipes', () => {
    expect(splitTableRow('a | b')).toEqual(['a', 'b']);
    expect(splitTableRow('| a | | c |')).toEqual(['a', '', 'c']);
  });

  it('normalises emphasis, escapes, case and punctuation', () => {
    expect(normalizeStructureText('**1.2  Scope**')).toBe(normalizeStructureText('1.2 scope'));
    expect(normalizeStructureText('\\# Über-Sicht')).toBe('über sicht');
    expect(normalizeStructureText('Scope')).not.toBe(normalizeStructureText('Scopes'));
  });
});

describe('headingRecall', () => {
  const reference = '# Report\n\n## 1 Introduction\n\ntext\n\n## 2 Methods\n\n### 2.1 Data\n\nmore text\n';

  it('is 1 with level agreement 1 when every heading is found at the same rank', () => {
    const out = '## Report\n\n### 1 Introduction\n\ntext\n\n### 2 Methods\n\n#### 2.1 Data\n';
    expect(headingRecall(out, reference)).toMatchObject({ found: 4, total: 4, recall: 1, levelAgreement: 1, precision: 1 });
  });

  it('counts headings written as paragraphs as missed', () => {
    const out = '# Report\n\n1 Introduction\n\ntext\n\n**2 Methods**\n\n### 2.1 Data\n';
    const s = headingRecall(out, reference);
    expect(s.found).toBe(2);
    expect(s.recall).toBe(0.5);
  });

  it('reports level disagreement and false positives separately from recall', () => {
    const out = '# Report\n\n# 1 Introduction\n\n# 2 Methods\n\n# 2.1 Data\n\n# Table 3 total\n';
    const s = headingRecall(out, reference);
    expect(s.recall).toBe(1);
    expect(s.levelAgreement).toBe(0.25); // only "Report" keeps its rank
    expect(s.precision).toBe(0.8);
  });

  it('matches each output heading once', () => {
    expect(headingRecall('## Notes\n', '## Notes\n\n## Notes\n')).toMatchObject({ found: 1, total: 2, recall: 0.5 });
  });

  it('is null without reference headings', () => {
    expect(headingRecall('## A\n', 'just text\n').recall).toBeNull();
  });
});

describe('tableCellF1', () => {
  const reference = '| Year | Revenue | Cost |\n| --- | --- | --- |\n| 2021 | 10.5 | 4 |\n| 2022 | 12.0 | 5 |\n';

  it('is 1 for the same table, whatever the spacing and emphasis', () => {
    const out = 'Intro\n\n|**Year**|Revenue|Cost|\n|-|-|-|\n|2021|10.5|4|\n|2022|12.0|5|\n';
    expect(tableCellF1(out, reference)).toMatchObject({ f1: 1, matched: 9, referenceCells: 9 });
  });

  it('is 0 when the table is flattened into paragraphs', () => {
    const out = 'Year Revenue Cost\n\n2021 10.5 4\n\n2022 12.0 5\n';
    expect(tableCellF1(out, reference).f1).toBe(0);
  });

  it('penalises merged columns and extra cells', () => {
    // Revenue and Cost merged into one column: only the 3 year cells of 9 survive, of 6 output cells.
    const out = '| Year | Revenue Cost |\n| --- | --- |\n| 2021 | 10.5 4 |\n| 2022 | 12.0 5 |\n';
    const s = tableCellF1(out, reference);
    expect(s.matched).toBe(3);
    const p = 3 / 6;
    const r = 3 / 9;
    expect(s.f1).toBeCloseTo((2 * p * r) / (p + r), 6);
  });

  it('is null when the reference has no table', () => {
    expect(tableCellF1('| a | b |\n|---|---|\n| 1 | 2 |\n', 'no tables').f1).toBeNull();
  });
});

describe('textSimilarity', () => {
  it('ignores markup but not words', () => {
    expect(textSimilarity('## Hello **world**', 'Hello world')).toBe(1);
    expect(textSimilarity('Hello there', 'Hello world')).toBeLessThan(0.8);
  });
});
