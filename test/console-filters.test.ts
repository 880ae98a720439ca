import { describe, expect, it } from 'vitest';
import { buildFilter, type FilterRow } from '@/components/metadata-filters';

const row = (key: string, operator: FilterRow['operator'], value: string, id = 1): FilterRow => ({ id, key, operator, value });

describe('search filters in the console', () => {
  it('turns rows into the API filter, numbers and true/false as such', () => {
    expect(buildFilter([row('page', 'lte', '3'), row('section', 'eq', 'Scope', 2), row('lang', 'in', 'en, de', 3)])).toEqual({
      'metadata.page': { $lte: 3 },
      'metadata.section': 'Scope',
      'metadata.lang': ['en', 'de'],
    });
    expect(buildFilter([row('', 'eq', 'x'), row('page', 'eq', ' ')])).toBeUndefined();
  });

  it('reads "passage" as the passage number people see, counted from 1 (chunk_index counts from 0)', () => {
    expect(buildFilter([row('passage', 'lte', '1')])).toEqual({ 'metadata.chunk_index': { $lte: 0 } });
    expect(buildFilter([row('Passage', 'in', '1,3')])).toEqual({ 'metadata.chunk_index': [0, 2] });
    expect(buildFilter([row('passage', 'exists', 'yes')])).toEqual({ 'metadata.chunk_index': { $exists: true } });
    expect(buildFilter([row('chunk_index', 'eq', '0')])).toEqual({ 'metadata.chunk_index': 0 });
  });

  it('joins several rows on one key into one set of conditions', () => {
    expect(buildFilter([row('page', 'gte', '2'), row('page', 'lte', '4', 2)])).toEqual({ 'metadata.page': { $gte: 2, $lte: 4 } });
  });
});
