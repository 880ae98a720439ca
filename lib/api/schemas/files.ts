import { z } from 'zod';
import { idParam, listOf, paginationQuery, sortQuery, timestamp } from './common';

export const FILE_SORT_FIELDS = ['created_at', 'filename', 'size'] as const;

export const fileListQuery = paginationQuery
  .extend(sortQuery(FILE_SORT_FIELDS, 'created_at', 'desc').shape)
  .extend({
    tags: z.string().max(2000).optional().meta({ description: 'Comma-separated tags; files having all of them' }),
    content_type: z.string().max(200).optional().meta({ description: 'MIME type filter', example: 'application/pdf' }),
  });

export const fileIdParams = idParam('file_id', 'file_01jd0000000000000000000000');

const fileBase = {
  id: z.string().meta({ example: 'file_01jd0000000000000000000000' }),
  filename: z.string(),
  content_type: z.string().meta({ example: 'application/pdf' }),
  size: z.number().int().meta({ description: 'Bytes' }),
  tags: z.array(z.string()),
  created_at: timestamp,
};

export const fileSchema = z
  .object({ ...fileBase, metadata: z.record(z.string(), z.unknown()), updated_at: timestamp })
  .meta({ id: 'File' });

export const fileListItemSchema = z.object(fileBase).meta({ id: 'FileListItem' });
export const fileListSchema = listOf(fileListItemSchema, 'FileList');

export const uploadSchema = z
  .object({
    file: z.string().meta({ format: 'binary', description: 'The file; its type is decided by its content' }),
    metadata: z.string().optional().meta({ description: 'A JSON object, as a string' }),
    tags: z.string().optional().meta({ description: 'Comma-separated tags' }),
  })
  .meta({ id: 'FileUpload' });

export const fileTypeSchema = z
  .object({
    extension: z.string().meta({ example: '.pdf' }),
    mime_type: z.string().meta({ example: 'application/pdf' }),
    description: z.string(),
    max_size_mb: z.number().int().meta({ example: 100 }),
  })
  .meta({ id: 'FileType' });

export const fileTypesSchema = z.object({ types: z.array(fileTypeSchema) }).meta({ id: 'FileTypes' });
