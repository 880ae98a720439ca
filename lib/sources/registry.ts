import { z } from 'zod';
import type { SourceRow } from '@/lib/db/schema';
import { decryptSecret } from '@/lib/crypto/secret-box';
import { s3Source } from './s3';
import type { SourceType } from './types';
import { urlSource } from './url';
import { webSource } from './web';

/*
 * The kinds of source Quarry syncs. Adding one (a drive, a wiki) is one module implementing
 * SourceType and one line here; the engine, API, console and MCP tools take it from this list.
 */
export const SOURCE_TYPES = { s3: s3Source, web: webSource, url: urlSource } as unknown as Record<string, SourceType<any, any>>;

export const SOURCE_TYPE_NAMES = ['s3', 'web', 'url'] as const;
export type SourceTypeName = (typeof SOURCE_TYPE_NAMES)[number];

/** Settings every type takes besides its own. */
export const commonConfig = {
  keep_deleted: z
    .boolean({ error: 'keep_deleted must be a boolean' })
    .default(false)
    .meta({ description: 'Keep documents whose item is gone from the source (by default a sync removes them)' }),
};

/** A type's whole config schema: its own fields and the common ones. */
export function configSchemaOf(type: SourceType<any, any>): z.ZodObject {
  return (type.configSchema as unknown as z.ZodObject).extend(commonConfig);
}

export function sourceTypeOf(name: string): SourceType<any, any> {
  const type = SOURCE_TYPES[name];
  if (!type) throw new Error(`Unknown source type ${name}`);
  return type;
}

/** What a sync of `row` needs: its type, parsed config and decrypted credentials. */
export function loadedSource(row: SourceRow): { type: SourceType<any, any>; config: Record<string, unknown> & { keep_deleted: boolean }; credentials: unknown } {
  const type = sourceTypeOf(row.type);
  const config = configSchemaOf(type).parse(row.config) as Record<string, unknown> & { keep_deleted: boolean };
  const credentials = row.credentialsCiphertext ? JSON.parse(decryptSecret(row.credentialsCiphertext)) : null;
  return { type, config, credentials };
}
