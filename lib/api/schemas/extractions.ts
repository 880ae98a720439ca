import { z } from 'zod';
import { EXTRACTION_MODES, EXTRACTION_STATUSES } from '@/lib/db/schema';
import { OCR_LANGUAGE_CODES, OCR_LANGUAGE_SHORT_CODES } from '@/lib/extraction/ocr/languages';
import { OCR_PROVIDERS, type OCR_LANGUAGES } from '@/lib/extraction/types';
import { batchResultOf, idParam, timestamp } from './common';

const LANGUAGE_ERROR =
  `language must be one of: ${OCR_LANGUAGE_SHORT_CODES.join(', ')}, ` +
  `or a Tesseract data name: ${OCR_LANGUAGE_CODES.filter((c) => !OCR_LANGUAGE_SHORT_CODES.includes(c)).join(', ')}`;

export const extractionOptionsSchema = z
  .object({
    // Every code of lib/extraction/ocr/languages.ts, typed as the contract's four (OcrLanguage in
    // lib/extraction/types.ts) until that type names them all; only the OCR code reads the value.
    language: z
      .enum(OCR_LANGUAGE_CODES as unknown as typeof OCR_LANGUAGES, { error: LANGUAGE_ERROR })
      .optional()
      .meta({
        description:
          'Document language for OCR: zh (Simplified Chinese, with Traditional when installed), en, ja, ko, ar (Arabic), he (Hebrew), ' +
          'zh-Hans, zh-Hant, or a Tesseract data name (chi_sim, jpn_vert, …). Omitted: English, and a page that reads badly is read again ' +
          'in the script found on it. A language whose data is not installed fails the extraction with OCR_FAILED naming the installed ones',
      }),
    ocr_provider: z
      .enum(OCR_PROVIDERS, { error: `ocr_provider must be one of: ${OCR_PROVIDERS.join(', ')}` })
      .default('default')
      .meta({ description: 'default: the best local engine; tesseract; cloud: the HTTP OCR service configured on the server' }),
    extract_tables: z.boolean({ error: 'extract_tables must be a boolean' }).default(true),
    preserve_layout: z.boolean({ error: 'preserve_layout must be a boolean' }).default(false),
    merge_tables: z
      .boolean({ error: 'merge_tables must be a boolean' })
      .optional()
      .meta({
        description:
          'PDF, default true: a table continued on the next page (same columns, ending one page and starting the next) is one table, its repeated header row dropped; ' +
          'each row keeps its own page (row_prov in the document model). false: each page keeps its own part',
      }),
  })
  .meta({ id: 'ExtractionOptions' });

export const createExtractionBody = z
  .object({
    file_id: z.string({ error: 'file_id is required and must be a string' }).meta({ example: 'file_01jd0000000000000000000000' }),
    mode: z
      .enum(EXTRACTION_MODES, { error: `mode must be one of: ${EXTRACTION_MODES.join(', ')}` })
      .default('normal')
      .meta({ description: 'simple: text layer only, no OCR; normal: OCR for pages without text; advanced: OCR every page' }),
    options: extractionOptionsSchema.prefault({}),
  })
  .meta({ id: 'CreateExtraction' });

export const extractionIdParams = idParam('extraction_id', 'ext_01jd0000000000000000000000');

export const extractionSchema = z
  .object({
    id: z.string(),
    file_id: z.string(),
    status: z.enum(EXTRACTION_STATUSES),
    mode: z.enum(EXTRACTION_MODES),
    progress: z.number().int().min(0).max(100).optional().meta({ description: 'While pending or processing' }),
    markdown: z.string().optional().meta({ description: 'When completed; pages start with <!-- page N -->' }),
    total_pages: z.number().int().optional(),
    metadata: z.record(z.string(), z.unknown()).optional().meta({ description: 'title, author, created_date when found' }),
    error: z.object({ code: z.string(), message: z.string() }).optional().meta({ description: 'When failed' }),
    created_at: timestamp,
    completed_at: timestamp.nullable().optional(),
  })
  .meta({ id: 'Extraction' });

export const createdExtractionSchema = z
  .object({ id: z.string(), file_id: z.string(), status: z.literal('pending'), mode: z.enum(EXTRACTION_MODES), created_at: timestamp })
  .meta({ id: 'CreatedExtraction' });

/**
 * `extract` on uploads and on adding documents: a mode, or {mode, options} as in POST
 * /v1/extractions. Both become {mode, options} with the defaults filled in.
 */
export const extractRequest = z
  .union(
    [
      z.enum(EXTRACTION_MODES).transform((mode) => ({ mode, options: extractionOptionsSchema.parse({}) })),
      z.object({
        mode: z.enum(EXTRACTION_MODES, { error: `mode must be one of: ${EXTRACTION_MODES.join(', ')}` }).default('normal'),
        options: extractionOptionsSchema.prefault({}),
      }),
    ],
    { error: `extract must be a mode (${EXTRACTION_MODES.join(', ')}) or an object {"mode", "options"}` },
  )
  .meta({ id: 'ExtractRequest', description: 'Start an extraction: a mode, or {"mode", "options"} as in POST /v1/extractions' });

export const MAX_EXTRACTION_BATCH = 100;

export const createExtractionsBatchBody = z
  .object({
    file_ids: z
      .array(z.string({ error: 'file_ids must hold strings' }), { error: 'file_ids must be a list of file ids' })
      .min(1, 'file_ids must not be empty')
      .max(MAX_EXTRACTION_BATCH, `file_ids may hold at most ${MAX_EXTRACTION_BATCH} files`),
    mode: z
      .enum(EXTRACTION_MODES, { error: `mode must be one of: ${EXTRACTION_MODES.join(', ')}` })
      .default('normal'),
    options: extractionOptionsSchema.prefault({}),
  })
  .meta({ id: 'CreateExtractionsBatch' });

export const createExtractionsBatchResultSchema = batchResultOf('extraction', createdExtractionSchema, 'CreateExtractionsBatchResult');

const region = {
  char_start: z.number().int().meta({ description: 'Start offset (UTF-16 code units) in the extraction\'s markdown' }),
  char_end: z.number().int().meta({ description: 'End offset (exclusive)' }),
  x0: z.number().meta({ description: 'Left edge, as a fraction of the page width (0–1)' }),
  y0: z.number().meta({ description: 'Top edge, as a fraction of the page height (0–1, from the top)' }),
  x1: z.number().meta({ description: 'Right edge' }),
  y1: z.number().meta({ description: 'Bottom edge' }),
};

export const extractionLayoutSchema = z
  .object({
    extraction_id: z.string(),
    pages: z
      .array(
        z.object({
          page: z.number().int(),
          blocks: z.array(
            z
              .object({ ...region, lines: z.array(z.object(region)) })
              .meta({ description: 'A paragraph, heading, list item, table or code block: the region of its lines' }),
          ),
        }),
      )
      .meta({ description: 'Pages with positioned text, in order; empty for formats without positions (Office, text, HTML, e-mail)' }),
  })
  .meta({ id: 'ExtractionLayout' });
