/** Limits the renderer applies to every table, whatever its format. */
export const TABLE_LIMITS = {
  /** Widest table written (columns beyond are cut). */
  columns: 1_000,
  /**
   * Most cells of one written table, empty and covered positions included (rows beyond are cut
   * with a note): sparse or spanning tables can be far larger than the cells they were built from.
   */
  cells: 400_000,
} as const;

export type TableLimits = { readonly columns: number; readonly cells: number };
