/**
 * DOCX structure beyond the body text (lib/extraction/office/docx*.ts): text boxes and shapes,
 * numbered and outline-level headings, headers and footers. Fixtures where the shared set has
 * them, documents built here (fflate) for the cases it lacks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractDocx } from '@/lib/extraction/extractors';
import type { ExtractInput } from '@/lib/extraction/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { extractInput } from '@/test/support/extract-input';

let tmp: string;
let counter = 0;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-docx-structure-'));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function inputFor(file: string): ExtractInput {
  return extractInput(file, { mime_type: 'application/octet-stream', extension: path.extname(file).toLowerCase() }, tmp);
}

function scratch(extension: string, bytes: Uint8Array): ExtractInput {
  const file = path.join(tmp, `doc-${++counter}${extension}`);
  fs.writeFileSync(file, bytes);
  return inputFor(file);
}

const count = (text: string, part: string) => text.split(part).length - 1;

const NS = [
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"',
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"',
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"',
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"',
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"',
  'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"',
  'xmlns:v="urn:schemas-microsoft-com:vml"',
].join(' ');
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function rels(entries: [id: string, type: string, target: string][]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entries
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${type.includes('/') ? type : `${REL}/${type}`}" Target="${target}"/>`)
    .join('')}</Relationships>`;
}

/** A DOCX with the given body, word/ parts (name → XML) and main-document relationships. */
function docx(body: string, parts: Record<string, string> = {}, documentRels: [string, string, string][] = []): Uint8Array {
  const files: Zippable = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>',
    ),
    '_rels/.rels': strToU8(rels([['rId1', 'officeDocument', 'word/document.xml']])),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document ${NS}><w:body>${body}</w:body></w:document>`),
    'word/_rels/document.xml.rels': strToU8(rels(documentRels)),
  };
  for (const [name, xml] of Object.entries(parts)) files[`word/${name}`] = strToU8(`<?xml version="1.0" encoding="UTF-8"?>${xml}`);
  return zipSync(files);
}

const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const para = (text: string, pPr = '') => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}${run(text)}</w:p>`;
const styled = (style: string, text: string, extra = '') => para(text, `<w:pStyle w:val="${style}"/>${extra}`);
const box = (text: string) => `<w:txbxContent>${para(text)}</w:txbxContent>`;

/** A DrawingML shape with a text box, inline or anchored. */
function drawing(text: string, anchored: boolean): string {
  const kind = anchored ? 'wp:anchor' : 'wp:inline';
  return `<w:drawing><${kind}><wp:extent cx="100" cy="100"/><wp:docPr id="1" name="Shape"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr/><wps:txbx>${box(text)}</wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></${kind}></w:drawing>`;
}

describe('DOCX text boxes and shapes', () => {
  it('reads each text box of docx-shapes.docx once, inline ones in their line, floating ones after their paragraph', async () => {
    const { markdown } = await extractDocx(inputFor(path.join(FIXTURES_DIR, 'formats/docx-shapes.docx')));
    for (const text of ['\\<inline-image>', '\\<inline-image1>', '\\<inline-image2>', '\\<floating-shape>']) expect(count(markdown, text)).toBe(1);
    const lines = markdown.split('\n').filter(Boolean);
    expect(lines).toEqual([
      'Paragraph with single \\<inline-image> within.',
      'Paragraph with \\<inline-image1> and \\<inline-image2> within.',
      'Paragraph with floating shape attached.',
      '\\<floating-shape>',
    ]);
  });

  it('reads DrawingML-only boxes (no VML fallback), VML boxes of any shape, and one branch of alternate content', async () => {
    const body = [
      `<w:p>${run('Before the choice-only box.')}<w:r><mc:AlternateContent><mc:Choice Requires="wps">${drawing('Choice only box', true)}</mc:Choice></mc:AlternateContent></w:r></w:p>`,
      `<w:p>${run('Plain anchored shape.')}<w:r>${drawing('Anchored without alternate content', true)}</w:r></w:p>`,
      `<w:p><w:r><w:pict><v:oval style="position:absolute"><v:textbox>${box('Oval callout')}</v:textbox></v:oval></w:pict></w:r>${run('Oval anchor.')}</w:p>`,
      `<w:p>${run('Both branches:')}<w:r><mc:AlternateContent><mc:Choice Requires="wps">${drawing('Shared text', false)}</mc:Choice><mc:Fallback><w:pict><v:rect>${`<v:textbox>${box('Shared text')}</v:textbox>`}</v:rect></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`,
      `<w:p>${run('Unknown requirement:')}<w:r><mc:AlternateContent><mc:Choice Requires="wpx">${drawing('Future shape', false)}</mc:Choice><mc:Fallback><w:pict><v:rect><v:textbox>${box('Fallback shape')}</v:textbox></v:rect></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`,
      `<w:p>${run('Tracked deletion:')}<w:del w:id="1" w:author="A"><w:r>${drawing('Deleted box', true)}</w:r></w:del></w:p>`,
      para('The end.'),
    ].join('');
    const { markdown } = await extractDocx(scratch('.docx', docx(body)));
    expect(markdown.trim().split('\n\n')).toEqual([
      'Before the choice-only box.',
      'Choice only box',
      'Plain anchored shape.',
      'Anchored without alternate content',
      'Oval anchor.',
      'Oval callout',
      'Both branches: Shared text',
      'Unknown requirement: Fallback shape',
      'Tracked deletion:',
      'The end.',
    ]);
  });
});

describe('DOCX structure on hostile input', () => {
  it('stops following nested alternate content and text boxes at a fixed depth, in linear time', async () => {
    const depth = 5000;
    const nested = `${'<mc:AlternateContent><mc:Choice Requires="wps">'.repeat(depth)}${drawing('Deepest box', true)}${'</mc:Choice></mc:AlternateContent>'.repeat(depth)}`;
    const boxes = `${'<w:drawing><wp:anchor><wps:txbx><w:txbxContent><w:p><w:r>'.repeat(500)}<w:t>Innermost</w:t>${'</w:r></w:p></w:txbxContent></wps:txbx></wp:anchor></w:drawing>'.repeat(500)}`;
    const body = `<w:p>${run('Before.')}<w:r>${nested}</w:r></w:p><w:p><w:r>${boxes}</w:r></w:p>${para('After.')}`;
    const started = performance.now();
    const { markdown } = await extractDocx(scratch('.docx', docx(body)));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(markdown).toContain('Before.');
    expect(markdown).toContain('After.');
    expect(markdown).not.toContain('Deepest box');
    expect(markdown).not.toContain('Innermost');
  });

  it('refuses a drawing that is never closed, and reads huge headers of rules and page fields in linear time', async () => {
    const broken = `<w:p><w:r><w:drawing><wp:inline><wps:txbx>${box('Open')}</wps:txbx></wp:inline></w:r></w:p>`;
    await expect(extractDocx(scratch('.docx', docx(broken)))).rejects.toMatchObject({ code: 'CORRUPT_DOCUMENT' });
    const noise = `${para('________').repeat(20_000)}${'<w:p><w:fldSimple w:instr="PAGE"><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p>'.repeat(20_000)}`;
    const started = performance.now();
    const { markdown } = await extractDocx(
      scratch('.docx', docx(`${para('Body.')}<w:sectPr><w:headerReference w:type="default" r:id="h1"/></w:sectPr>`, { 'header1.xml': HDR('hdr', noise) }, [['h1', 'header', 'header1.xml']])),
    );
    expect(performance.now() - started).toBeLessThan(5000);
    expect(markdown.trim()).toBe('Body.');
  });
});

const STYLES = `<w:styles ${NS}>
  <w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
  <w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
  <w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Heading1"/><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
  <w:style w:type="paragraph" w:styleId="Aside"><w:name w:val="Aside heading"/><w:basedOn w:val="Heading2"/></w:style>
  <w:style w:type="paragraph" w:styleId="AsideNote"><w:name w:val="Aside note"/><w:basedOn w:val="Aside"/></w:style>
  <w:style w:type="paragraph" w:styleId="Plain2"><w:name w:val="Plain after heading"/><w:basedOn w:val="Heading2"/><w:pPr><w:numPr><w:numId w:val="0"/></w:numPr><w:outlineLvl w:val="9"/></w:pPr></w:style>
  <w:style w:type="paragraph" w:styleId="berschrift3"><w:name w:val="Überschrift 3"/><w:basedOn w:val="Normal"/></w:style>
  <w:style w:type="paragraph" w:styleId="Appendix"><w:name w:val="Appendix"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
  <w:style w:type="paragraph" w:styleId="Loop"><w:name w:val="Loop"/><w:basedOn w:val="Loop"/></w:style>
</w:styles>`;

const NUMBERING = `<w:numbering ${NS}>
  <w:abstractNum w:abstractNumId="10">
    <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
    <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/></w:lvl>
  </w:abstractNum>
  <w:abstractNum w:abstractNumId="20">
    <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="Article %1"/></w:lvl>
  </w:abstractNum>
  <w:abstractNum w:abstractNumId="30">
    <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperLetter"/><w:pStyle w:val="Appendix"/><w:lvlText w:val="Appendix %1:"/></w:lvl>
  </w:abstractNum>
  <w:num w:numId="1"><w:abstractNumId w:val="10"/></w:num>
  <w:num w:numId="3"><w:abstractNumId w:val="30"/></w:num>
  <w:num w:numId="2"><w:abstractNumId w:val="20"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="3"/></w:lvlOverride></w:num>
</w:numbering>`;

describe('DOCX headings', () => {
  it('levels from outline levels, basedOn chains and localized names; numbers as Word shows them', async () => {
    const body = [
      styled('Heading1', 'Introduction'),
      styled('Heading2', 'Scope'),
      styled('AsideNote', 'Inherited through two styles'),
      para('Body text.'),
      styled('Plain2', 'Not a heading: outline level 9 overrides the base style'),
      styled('Heading1', 'Methods'),
      styled('Heading2', 'Data'),
      para('Outline level set on the paragraph', '<w:outlineLvl w:val="2"/>'),
      // Word keeps heading styles at their level whatever the paragraph says.
      styled('Heading2', 'Direct body level', '<w:outlineLvl w:val="9"/>'),
      styled('berschrift3', 'Localized name'),
      para('Deep outline', '<w:outlineLvl w:val="7"/>'),
      styled('Heading1', 'Background', '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="2"/></w:numPr>'),
      styled('Loop', 'A style based on itself'),
      // Numbered through a list level naming the style, without w:numPr anywhere.
      styled('Appendix', 'Tables'),
      styled('Appendix', 'Figures'),
    ].join('');
    const { markdown } = await extractDocx(
      scratch('.docx', docx(body, { 'styles.xml': STYLES, 'numbering.xml': NUMBERING }, [
        ['rId1', 'styles', 'styles.xml'],
        ['rId2', 'numbering', 'numbering.xml'],
      ])),
    );
    expect(markdown.trim().split('\n\n')).toEqual([
      '# 1. Introduction',
      '## 1.1 Scope',
      '## 1.2 Inherited through two styles',
      'Body text.',
      'Not a heading: outline level 9 overrides the base style',
      '# 2. Methods',
      '## 2.1 Data',
      '### Outline level set on the paragraph',
      '## 2.2 Direct body level',
      '### Localized name',
      '###### Deep outline',
      '# Article III Background',
      'A style based on itself',
      '# Appendix A: Tables',
      '# Appendix B: Figures',
    ]);
  });
});

describe('DOCX title', () => {
  const TITLED = STYLES.replace(
    '</w:styles>',
    '<w:style w:type="paragraph" w:styleId="Titel"><w:name w:val="Title"/><w:basedOn w:val="Normal"/></w:style></w:styles>',
  );

  it('a Title paragraph is the one # heading and the headings under it move one level down', async () => {
    const body = [
      styled('Titel', 'Annual report'),
      styled('Heading1', 'Introduction'),
      styled('Heading2', 'Scope'),
      para('Deep outline', '<w:outlineLvl w:val="5"/>'),
    ].join('');
    const { markdown } = await extractDocx(
      scratch('.docx', docx(body, { 'styles.xml': TITLED, 'numbering.xml': NUMBERING }, [
        ['rId1', 'styles', 'styles.xml'],
        ['rId2', 'numbering', 'numbering.xml'],
      ])),
    );
    expect(markdown.trim().split('\n\n')).toEqual(['# Annual report', '## 1. Introduction', '### 1.1 Scope', '###### Deep outline']);
  });

  it('a Title style that no paragraph uses changes nothing; word_sample.docx nests as its reference does', async () => {
    const { markdown } = await extractDocx(
      scratch('.docx', docx(styled('Heading1', 'Introduction'), { 'styles.xml': TITLED, 'numbering.xml': NUMBERING }, [
        ['rId1', 'styles', 'styles.xml'],
        ['rId2', 'numbering', 'numbering.xml'],
      ])),
    );
    expect(markdown.trim()).toBe('# 1. Introduction');
    const sample = await extractDocx(inputFor(path.join(FIXTURES_DIR, 'docx/word_sample.docx')));
    const headings = (text: string) => text.split('\n').filter((line) => line.startsWith('#'));
    expect(headings(sample.markdown)).toEqual(headings(fs.readFileSync(path.join(FIXTURES_DIR, 'docx/word_sample.md'), 'utf8')));
  });
});

const HDR = (root: 'hdr' | 'ftr', body: string) => `<w:${root} ${NS}>${body}</w:${root}>`;
const field = (instr: string, result: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instr} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${run(result)}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;

describe('DOCX headers and footers', () => {
  it('adds the headers and footers of docx-hdrftr.docx once, after the body, tables included', async () => {
    const { markdown } = await extractDocx(inputFor(path.join(FIXTURES_DIR, 'formats/docx-hdrftr.docx')));
    const [body, section] = markdown.split('\n## Headers and footers\n');
    expect(body.trim()).toBe('Main document');
    for (const text of ['First header para', 'Last header para', 'Table cell1', 'Table cell2', 'para1', 'para2', '| cell1 |']) {
      expect(count(section, text)).toBe(1);
    }
    expect(section.indexOf('First header para')).toBeLessThan(section.indexOf('para1'));
    // The text of a vertically merged continuation cell is not shown by Word.
    expect(markdown).not.toContain('I should not be included');
    expect(count(markdown, '## Headers and footers')).toBe(1);
  });

  it('writes first, even and default variants with the same text once, without page numbers', async () => {
    const sect = (refs: string) => `<w:sectPr>${refs}</w:sectPr>`;
    const refs = (kind: 'header' | 'footer', ids: [string, string][]) =>
      ids.map(([type, id]) => `<w:${kind}Reference w:type="${type}" r:id="${id}"/>`).join('');
    const body = [
      para('Section one.'),
      `<w:p><w:pPr>${sect(refs('header', [['default', 'h1'], ['first', 'h2'], ['even', 'h3']]) + refs('footer', [['default', 'f1']]))}</w:pPr></w:p>`,
      para('Section two.'),
      sect(refs('header', [['default', 'h1']]) + refs('footer', [['default', 'f2']])),
    ].join('');
    const parts = {
      'header1.xml': HDR('hdr', para('ACME Confidential') + para('____________')),
      'header2.xml': HDR('hdr', para('ACME Confidential')),
      'header3.xml': HDR('hdr', `<w:p>${run('ACME')}${run(' Confidential')}</w:p>`),
      'footer1.xml': HDR('ftr', `<w:p>${run('Page ')}${field('PAGE \\* MERGEFORMAT', '7')}${run(' of ')}${field('NUMPAGES', '12')}</w:p>`),
      'footer2.xml': HDR('ftr', `<w:p>${run('Contract 2024-17, page ')}<w:fldSimple w:instr=" PAGE "><w:r><w:t>3</w:t></w:r></w:fldSimple></w:p>`),
    };
    const rel = (id: string, kind: string, target: string): [string, string, string] => [id, kind, target];
    const { markdown } = await extractDocx(
      scratch('.docx', docx(body, parts, [
        rel('h1', 'header', 'header1.xml'),
        rel('h2', 'header', 'header2.xml'),
        rel('h3', 'header', 'header3.xml'),
        rel('f1', 'footer', 'footer1.xml'),
        rel('f2', 'footer', 'footer2.xml'),
      ])),
    );
    expect(markdown.trim().split('\n\n')).toEqual(['Section one.', 'Section two.', '## Headers and footers', 'ACME Confidential', 'Contract 2024-17, page']);
  });
});
