import { z } from 'zod';
import { DOCUMENT_VERSION, SECTION_KINDS, type Block, type Inline, type ListItem, type QuarryDocument } from '@/lib/document/types';

/*
 * The document model as GET /v1/extractions/{id}/document serves it: lib/document/types.ts
 * without the source lines (lib/document/serve.ts). The annotations `z.ZodType<Block>` and
 * friends make the compiler check that what these schemas accept is the model's own type.
 */

const fraction = z.number().min(0).max(1);

const box = z
  .tuple([fraction, fraction, fraction, fraction])
  .meta({ id: 'Box', description: 'x0, y0, x1, y1: fractions of the page (0–1), origin at the top-left corner of the page as shown' });

const pageNumber = z.number().int().min(1);

const provenance = z
  .object({
    page: pageNumber.optional().meta({ description: '1-based page (or slide, sheet) number' }),
    bbox: box.optional().meta({ description: "The block's region on its page: the union of its lines" }),
    span: z
      .tuple([z.number().int().min(0), z.number().int().min(0)])
      .optional()
      .meta({
        description:
          "Where the block is in the extraction's `markdown`: UTF-16 offsets of its first character and just after its last (as chunks' char_start and char_end). " +
          'Given for blocks at the top level or in a section and for the items of such lists; a section runs from its page marker to its last block.',
      }),
  })
  .meta({ id: 'Provenance', description: 'Where a block came from, where the format knows it' });

const optionalMark = (description: string) => z.boolean().optional().meta({ description });

export const inlineSchema: z.ZodType<Inline> = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('text'),
      text: z.string(),
      bold: optionalMark('Bold'),
      italic: optionalMark('Italic'),
      strike: optionalMark('Struck through'),
      code: optionalMark('Inline code'),
      superscript: optionalMark('Superscript'),
      subscript: optionalMark('Subscript'),
      href: z.string().optional().meta({ description: 'Link target (http, https or mailto)' }),
    }),
    z.object({ type: z.literal('break').meta({ description: 'A hard line break inside a paragraph' }) }),
    z.object({ type: z.literal('math'), latex: z.string().meta({ description: 'An inline formula, as LaTeX' }) }),
    z.object({ type: z.literal('footnote_ref'), label: z.string().meta({ description: 'The label of the footnote block it refers to' }) }),
  ])
  .meta({ id: 'Inline', description: 'A run of text with its marks, a line break, an inline formula or a footnote reference' });

const inlines = z.array(inlineSchema);

/** Child blocks, resolved when parsed: blocks nest (list items, quotes, footnotes, sections). */
const childBlocks: z.ZodType<Block[]> = z.lazy(() => z.array(blockSchema));

const prov = provenance.optional();

const listItemSchema: z.ZodType<ListItem> = z
  .object({
    content: childBlocks.meta({ description: "The item's paragraphs and nested lists" }),
    number: z.number().int().optional().meta({ description: "The item's number in an ordered list, when it is not the one the list's order gives" }),
    label: z.string().optional().meta({ description: 'A label the source printed instead of a bullet ("a)", "(iv)")' }),
    checked: z.boolean().optional().meta({ description: 'Task-list items: ticked or not' }),
    prov,
  })
  .meta({ id: 'ListItem' });

const tableCellSchema = z
  .object({
    content: inlines,
    row_span: z.number().int().min(1).optional().meta({ description: 'Rows the cell covers, from its own downwards (1 when absent)' }),
    col_span: z.number().int().min(1).optional().meta({ description: 'Columns the cell covers, from its own rightwards (1 when absent)' }),
  })
  .meta({ id: 'TableCell' });

const paragraphSchema = z.object({ type: z.literal('paragraph'), content: inlines, prov });

const blockTypes = [
  z.object({ type: z.literal('heading'), level: z.literal([1, 2, 3, 4, 5, 6]), content: inlines, prov }),
  paragraphSchema,
  z.object({
    type: z.literal('list'),
    ordered: z.boolean(),
    start: z.number().int().optional().meta({ description: 'Number of the first item of an ordered list (1 when absent)' }),
    items: z.array(listItemSchema),
    prov,
  }),
  z.object({
    type: z.literal('table'),
    rows: z
      .array(z.array(tableCellSchema))
      .meta({ description: 'The cells that start in each row, left to right (as in HTML): a cell spanning rows appears once, in its first row' }),
    header_rows: z.number().int().min(0).meta({ description: 'How many rows at the top are header rows (0 when the source marks none)' }),
    caption: inlines.optional(),
    total_rows: z.number().int().min(0).optional().meta({ description: "The source's row count when rows were left out (a table over the cell limit)" }),
    row_prov: z
      .array(
        z
          .object({
            page: pageNumber.meta({ description: "The row's page" }),
            bbox: box.optional().meta({ description: "The row's region on its page, when the reader knows it" }),
          })
          .meta({ id: 'RowProvenance' }),
      )
      .optional()
      .meta({
        description:
          'Where each row is, one entry per entry of rows (PDF tables): a table continued over pages (options.merge_tables) is one table whose later rows are on later pages',
      }),
    prov,
  }),
  z.object({ type: z.literal('picture'), alt: z.string().optional(), caption: inlines.optional(), prov }),
  z.object({ type: z.literal('code'), text: z.string(), language: z.string().optional(), prov }),
  z.object({ type: z.literal('quote'), content: childBlocks, prov }),
  z.object({ type: z.literal('formula'), latex: z.string().meta({ description: 'A display formula, as LaTeX' }), prov }),
  z.object({ type: z.literal('footnote'), label: z.string(), content: childBlocks, prov }),
  z.object({ type: z.literal('rule').meta({ description: 'A thematic break between parts of the text' }), prov }),
  z.object({
    type: z.literal('preformatted'),
    text: z.string().meta({ description: 'Text with its line breaks and spacing as the page set it' }),
    prov,
  }),
  z.object({
    type: z.literal('section'),
    kind: z.enum(SECTION_KINDS),
    page: pageNumber.optional().meta({ description: 'The page number this section starts in the Markdown (<!-- page N -->), for paged units' }),
    name: z.string().optional().meta({ description: 'The sheet name, attachment file name, chapter title or part name' }),
    width: z.number().positive().optional().meta({ description: 'Page width in points (PDF pages and images)' }),
    height: z.number().positive().optional().meta({ description: 'Page height in points' }),
    content: childBlocks,
    furniture: z
      .array(paragraphSchema)
      .optional()
      .meta({
        description:
          "A page's furniture: its running headers and footers and page numbers, top to bottom, each with its page and region. " +
          'Not in `content`, the Markdown or the chunks.',
      }),
    prov,
  }),
] as const;

export const blockSchema: z.ZodType<Block> = z.discriminatedUnion('type', blockTypes).meta({
  id: 'Block',
  description:
    'A block of the document, by `type`: heading, paragraph, list, table, picture, code, quote, formula, footnote, rule, preformatted, or a section (page, slide, sheet, chapter, message, attachment, part) holding blocks of its own',
});

const metadataSchema = z
  .looseObject({
    title: z.string().optional(),
    author: z.string().optional(),
    created_date: z.string().optional().meta({ description: 'ISO 8601' }),
  })
  .meta({ description: 'title, author, created_date when found, and other fields some formats give' });

const documentShape = {
  version: z.literal(DOCUMENT_VERSION).meta({ description: 'The version of the document model' }),
  metadata: metadataSchema,
  blocks: z.array(blockSchema),
};

/** The served document model, as extractions produce it. */
export const quarryDocumentSchema: z.ZodType<QuarryDocument> = z.object(documentShape);

export const extractionDocumentSchema = z
  .object({ extraction_id: z.string(), ...documentShape })
  .meta({ id: 'ExtractionDocument', description: "A completed extraction's document model: its blocks, in reading order, with where each came from" });
