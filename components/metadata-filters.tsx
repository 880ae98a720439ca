'use client';

import { Button, Input, Select } from './ui';

/* Rows of "key, operator, value" that become a search `filter` on chunk metadata. */

export type FilterOperator = 'eq' | 'in' | 'gte' | 'lte' | 'exists';

export interface FilterRow {
  id: number;
  key: string;
  operator: FilterOperator;
  value: string;
}

const OPERATORS: { value: FilterOperator; label: string }[] = [
  { value: 'eq', label: 'equals' },
  { value: 'in', label: 'any of' },
  { value: 'gte', label: '≥ (at least)' },
  { value: 'lte', label: '≤ (at most)' },
  { value: 'exists', label: 'exists' },
];

/** Keys every passage has, offered as suggestions. */
const KNOWN_KEYS = ['page', 'section', 'passage'];

/**
 * "passage" is the passage number people see on results (1, 2, …): the stored chunk_index counts
 * from 0, so its numbers are shifted by one. chunk_index itself is still understood.
 */
function shiftPassage(value: unknown): unknown {
  if (typeof value === 'number') return value - 1;
  if (Array.isArray(value)) return value.map(shiftPassage);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([op, v]) => [op, op === '$exists' ? v : shiftPassage(v)]));
  }
  return value;
}

let nextId = 1;
export function newFilterRow(): FilterRow {
  return { id: nextId++, key: '', operator: 'eq', value: '' };
}

/** Numbers and true/false as such; anything else as text. */
function parseValue(raw: string): string | number | boolean {
  const text = raw.trim();
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}

function condition(row: FilterRow): unknown {
  switch (row.operator) {
    case 'eq':
      return parseValue(row.value);
    case 'in':
      return row.value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
        .map(parseValue);
    case 'gte':
      return { $gte: parseValue(row.value) };
    case 'lte':
      return { $lte: parseValue(row.value) };
    case 'exists':
      return { $exists: row.value !== 'no' };
  }
}

/** Whether a row has what it needs to be used. */
export function isComplete(row: FilterRow): boolean {
  if (!row.key.trim()) return false;
  if (row.operator === 'exists') return true;
  if (row.operator === 'in') return row.value.split(',').some((v) => v.trim());
  return row.value.trim() !== '';
}

/** The API filter for the complete rows; several rows on one key must all hold. */
export function buildFilter(rows: FilterRow[]): Record<string, unknown> | undefined {
  const filter: Record<string, unknown> = {};
  for (const row of rows.filter(isComplete)) {
    const name = row.key.trim().replace(/^metadata\./, '');
    const passage = name.toLowerCase() === 'passage';
    const key = `metadata.${passage ? 'chunk_index' : name}`;
    const next = passage ? shiftPassage(condition(row)) : condition(row);
    const asOperators = (c: unknown) =>
      c !== null && typeof c === 'object' && !Array.isArray(c) ? (c as Record<string, unknown>) : Array.isArray(c) ? { $in: c } : { $eq: c };
    filter[key] = key in filter ? { ...asOperators(filter[key]), ...asOperators(next) } : next;
  }
  return Object.keys(filter).length > 0 ? filter : undefined;
}

/** Editable filter rows with add and remove buttons. */
export function MetadataFilters({ rows, onChange }: { rows: FilterRow[]; onChange: (rows: FilterRow[]) => void }) {
  const update = (id: number, patch: Partial<FilterRow>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">Only passages whose details match</legend>
      <p className="text-xs text-slate-600">
        Every passage has a <em>page</em>, a <em>section</em> (its headings) and a <em>passage</em> number, plus any details given to its document. Separate
        several values with commas.
      </p>
      <datalist id="filter-keys">
        {KNOWN_KEYS.map((k) => (
          <option key={k} value={k} />
        ))}
      </datalist>
      {rows.map((row, index) => (
        <div key={row.id} role="group" aria-label={`Filter ${index + 1}`} className="flex flex-wrap items-center gap-2 rounded-md border border-slate-200 p-2">
          <Input
            aria-label="Detail"
            placeholder="e.g. page"
            list="filter-keys"
            value={row.key}
            onChange={(e) => update(row.id, { key: e.target.value })}
            className="min-w-0 flex-1 basis-24"
          />
          <Select
            aria-label="Condition"
            value={row.operator}
            onChange={(e) => update(row.id, { operator: e.target.value as FilterOperator, value: e.target.value === 'exists' ? 'yes' : row.operator === 'exists' ? '' : row.value })}
            className="min-w-0 flex-1 basis-32"
          >
            {OPERATORS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
          {row.operator === 'exists' ? (
            <Select aria-label="Value" value={row.value} onChange={(e) => update(row.id, { value: e.target.value })} className="min-w-0 flex-1 basis-24">
              <option value="yes">yes</option>
              <option value="no">no</option>
            </Select>
          ) : (
            <Input
              aria-label="Value"
              placeholder={row.operator === 'in' ? 'e.g. 1, 2, 3' : 'e.g. 2'}
              value={row.value}
              onChange={(e) => update(row.id, { value: e.target.value })}
              className="min-w-0 flex-1 basis-24"
            />
          )}
          <Button variant="ghost" onClick={() => onChange(rows.filter((r) => r.id !== row.id))}>
            Remove<span className="sr-only"> filter {index + 1}</span>
          </Button>
        </div>
      ))}
      <Button variant="secondary" onClick={() => onChange([...rows, newFilterRow()])}>
        Add a filter
      </Button>
    </fieldset>
  );
}
