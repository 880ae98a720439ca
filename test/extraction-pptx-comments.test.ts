/**
 * PPTX slide comments (lib/extraction/office/pptx-comments.ts): legacy and modern comment parts,
 * replies and authors, in a presentation built here (the shared fixtures have no comments).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { extractPptx } from '@/lib/extraction/extractors';
import { extractInput } from '@/test/support/extract-input';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-pptx-comments-'));

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function rels(entries: [id: string, type: string, target: string][]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entries
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${type.includes('/') ? type : `${REL}/${type}`}" Target="${target}"/>`)
    .join('')}</Relationships>`;
}

const P_NS = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const P188 = 'xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const MODERN = 'http://schemas.microsoft.com/office/2018/10/relationships';

function slideWith(title: string): string {
  return `<p:sld ${P_NS}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:r><a:t>${title}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
}

const txBody = (text: string) => `<p188:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p188:txBody>`;

describe('PPTX comments', () => {
  it('writes legacy and modern comments, with replies and authors, after the slide like notes', async () => {
    const xml = (s: string) => strToU8(`<?xml version="1.0" encoding="UTF-8"?>${s}`);
    const files: Zippable = {
      '[Content_Types].xml': xml('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>'),
      '_rels/.rels': strToU8(rels([['rId1', 'officeDocument', 'ppt/presentation.xml']])),
      'ppt/presentation.xml': xml(`<p:presentation ${P_NS}><p:sldIdLst><p:sldId id="256" r:id="rId1"/><p:sldId id="257" r:id="rId2"/></p:sldIdLst></p:presentation>`),
      'ppt/_rels/presentation.xml.rels': strToU8(rels([
        ['rId1', 'slide', 'slides/slide1.xml'],
        ['rId2', 'slide', 'slides/slide2.xml'],
        ['rId3', 'commentAuthors', 'commentAuthors.xml'],
        ['rId4', `${MODERN}/authors`, 'authors.xml'],
      ])),
      'ppt/slides/slide1.xml': xml(slideWith('Budget')),
      'ppt/slides/_rels/slide1.xml.rels': strToU8(rels([['rId1', 'comments', '../comments/comment1.xml']])),
      'ppt/slides/slide2.xml': xml(slideWith('Plan')),
      'ppt/slides/_rels/slide2.xml.rels': strToU8(rels([['rId1', `${MODERN}/comments`, '../comments/modernComment_101_1A2B.xml']])),
      'ppt/commentAuthors.xml': xml(`<p:cmAuthorLst ${P_NS}><p:cmAuthor id="0" name="Alice Smith" initials="AS" lastIdx="2" clrIdx="0"/></p:cmAuthorLst>`),
      'ppt/comments/comment1.xml': xml(
        `<p:cmLst ${P_NS}><p:cm authorId="0" dt="2024-01-01T10:00:00.000" idx="1"><p:pos x="10" y="10"/><p:text>Please check the totals</p:text></p:cm><p:cm authorId="7" idx="2"><p:pos x="0" y="0"/><p:text>Who wrote this?</p:text></p:cm></p:cmLst>`,
      ),
      'ppt/authors.xml': xml(`<p188:authorLst ${P188}><p188:author id="{B0B}" name="Bob Jones" initials="BJ" userId="bob" providerId="None"/><p188:author id="{C4C}" name="Carol Diaz" initials="CD" userId="carol" providerId="None"/></p188:authorLst>`),
      'ppt/comments/modernComment_101_1A2B.xml': xml(
        `<p188:cmLst ${P188}><p188:cm id="{1}" authorId="{B0B}" created="2024-02-01T09:00:00.000"><p188:replyLst><p188:reply id="{2}" authorId="{C4C}" created="2024-02-02T09:00:00.000">${txBody('Moved to Q3')}</p188:reply></p188:replyLst>${txBody('Is the launch date final?')}</p188:cm></p188:cmLst>`,
      ),
    };
    const file = path.join(tmp, 'comments.pptx');
    fs.writeFileSync(file, zipSync(files));
    const pptx = { mime_type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', extension: '.pptx' };
    const { markdown } = await extractPptx(extractInput(file, pptx, tmp));
    expect(markdown.trim()).toBe(
      [
        '<!-- page 1 -->',
        '## Budget',
        '> **Comment by Alice Smith:** Please check the totals\n>\n> **Comment:** Who wrote this?',
        '<!-- page 2 -->',
        '## Plan',
        '> **Comment by Bob Jones:** Is the launch date final?\n>\n> **Reply by Carol Diaz:** Moved to Q3',
      ].join('\n\n'),
    );
  });
});
