import { sql, type SQL } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';

/*
 * Metadata filters of search requests. Keys are `metadata.<key>` (a dotted path reaches nested
 * objects: `metadata.author.name`) and match the chunk's metadata: the document's metadata plus
 * page, section and chunk_index. Conditions on several keys must all hold.
 *
 *   "metadata.lang": "en"                 equal (or, when the chunk's value is an array, contains it)
 *   "metadata.lang": ["en", "de"]         any of
 *   "metadata.page": { "$gte": 2, "$lt": 5 }
 *   operators: $eq, $in, $ne, $nin, $gt, $gte, $lt, $lte (numbers or strings; strings compare
 *   as text, so ISO dates order correctly), $exists (boolean)
 *
 * Beyond metadata, `document_id` (a string or an array of strings) limits the documents searched.
 */

type Scalar = string | number | boolean | null;

const MAX_CONDITIONS = 32;
const MAX_IN_VALUES = 100;
const KEY_SHAPE = /^[^\s.]{1,100}$/;
const COMPARISONS = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
const OPERATORS = ['$eq', '$in', '$ne', '$nin', '$exists', ...Object.keys(COMPARISONS)];

export interface CompiledFilter {
  /** Conditions over the chunk alias `c`. */
  conditions: SQL[];
}

function invalid(field: string, reason: string): ApiError {
  return new ApiError('INVALID_REQUEST', `Invalid filter: ${field}: ${reason}`, { field, reason });
}

function isScalar(value: unknown): value is Scalar {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function scalarList(field: string, value: unknown): Scalar[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid(field, 'must be a non-empty array of values');
  if (value.length > MAX_IN_VALUES) throw invalid(field, `at most ${MAX_IN_VALUES} values`);
  if (!value.every(isScalar)) throw invalid(field, 'values must be strings, numbers, booleans or null');
  return value;
}

/** `c.metadata #> '{a,b}'`: the value at the path, SQL NULL when absent. */
function valueAt(path: string[]): SQL {
  return sql`(c.metadata #> ${`{${path.map((p) => `"${p.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[])`;
}

const jsonb = (value: Scalar) => sql`${JSON.stringify(value)}::jsonb`;

/** Equal to the value, or (for array values) containing it. JSON null matches JSON null only. */
function equals(target: SQL, value: Scalar): SQL {
  return sql`coalesce(${target} @> ${jsonb(value)}, false)`;
}

function anyOf(target: SQL, values: Scalar[]): SQL {
  return sql`(${sql.join(
    values.map((v) => equals(target, v)),
    sql` or `,
  )})`;
}

function compileOperators(field: string, target: SQL, ops: Record<string, unknown>): SQL[] {
  const out: SQL[] = [];
  const entries = Object.entries(ops);
  if (entries.length === 0) throw invalid(field, 'an operator object needs at least one operator');
  for (const [op, value] of entries) {
    const where = `${field}.${op}`;
    if (!OPERATORS.includes(op)) throw invalid(where, `unknown operator (use ${OPERATORS.join(', ')})`);
    if (op === '$eq' || op === '$ne') {
      if (!isScalar(value)) throw invalid(where, 'must be a string, number, boolean or null');
      out.push(op === '$eq' ? equals(target, value) : sql`not ${equals(target, value)}`);
    } else if (op === '$in' || op === '$nin') {
      const list = scalarList(where, value);
      out.push(op === '$in' ? anyOf(target, list) : sql`not ${anyOf(target, list)}`);
    } else if (op === '$exists') {
      if (typeof value !== 'boolean') throw invalid(where, 'must be true or false');
      out.push(value ? sql`(${target} is not null)` : sql`(${target} is null)`);
    } else {
      if (typeof value !== 'number' && typeof value !== 'string') throw invalid(where, 'must be a number or a string');
      if (typeof value === 'number' && !Number.isFinite(value)) throw invalid(where, 'must be a finite number');
      const type = typeof value === 'number' ? 'number' : 'string';
      // jsonb orders numbers numerically and strings as text; the type check keeps 10 > "9" out.
      out.push(
        sql`coalesce(jsonb_typeof(${target}) = ${type} and ${target} ${sql.raw(COMPARISONS[op as keyof typeof COMPARISONS])} ${jsonb(value)}, false)`,
      );
    }
  }
  return out;
}

/** Validates a request's `filter` and turns it into SQL conditions; throws INVALID_REQUEST naming the bad part. */
export function compileFilter(filter: Record<string, unknown> | undefined): CompiledFilter {
  const conditions: SQL[] = [];
  if (!filter) return { conditions };
  const entries = Object.entries(filter);
  if (entries.length > MAX_CONDITIONS) throw invalid('filter', `at most ${MAX_CONDITIONS} keys`);
  for (const [key, value] of entries) {
    const field = `filter.${key}`;
    if (key === 'document_id') {
      const ids = typeof value === 'string' ? [value] : scalarList(field, value);
      if (!ids.every((id) => typeof id === 'string')) throw invalid(field, 'must be a document id or an array of them');
      conditions.push(sql`c.document_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`);
      continue;
    }
    if (!key.startsWith('metadata.')) throw invalid(field, 'keys must have the form metadata.<key> (or be document_id)');
    const path = key.slice('metadata.'.length).split('.');
    if (path.some((p) => !KEY_SHAPE.test(p))) throw invalid(field, 'not a valid metadata key');
    const target = valueAt(path);
    if (isScalar(value)) conditions.push(equals(target, value));
    else if (Array.isArray(value)) conditions.push(anyOf(target, scalarList(field, value)));
    else if (typeof value === 'object') conditions.push(...compileOperators(field, target, value as Record<string, unknown>));
    else throw invalid(field, 'must be a value, an array of values or an operator object');
  }
  return { conditions };
}
