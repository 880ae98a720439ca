/** The structured content of a page, before it is written as Markdown. */
import type { RowProvenance, SourceLine, TableCell } from '@/lib/document/types';

export interface Span {
  text: string;
  bold: boolean;
}

/**
 * Where a block's lines sit: in the frame's reading coordinates while the page is laid out,
 * in page fractions once its frame is placed on the page (geometry.ts).
 */
export interface BlockGeometry {
  geom?: SourceLine[];
}

export type Block = BlockGeometry &
  (
    | {
        kind: 'text';
        spans: Span[];
        /** Number of source lines (a heading has few). */
        lines: number;
        /** Dominant font size (points). */
        size: number;
        /** Every character is bold. */
        bold: boolean;
        chars: number;
        /** Running header/footer candidate: normalised text, set for isolated lines in a page margin. */
        furniture?: string;
        /** Number at the start or end of such a line (page number of a running header). */
        pageLabel?: number;
        /** A page number in the margin: page furniture however many pages repeat it. */
        pageNumber?: boolean;
      }
    | { kind: 'list'; marker: string; ordered: boolean; level: number; spans: Span[]; size: number }
    | { kind: 'code'; text: string }
    /** `rows` holds each grid position's text; `cells`, when set, the cells with their spans (a spanning cell once). */
    /** `rowProv`, set on a table joined over pages: each row's page and region. */
    | { kind: 'table'; rows: string[][]; cells?: TableCell[][]; rowProv?: RowProvenance[] }
    /** Lines written as they are (preserve_layout, OCR text in layout mode). */
    | { kind: 'raw'; text: string }
  );

export function spansText(spans: readonly Span[]): string {
  return spans.map((s) => s.text).join('');
}

/** A table found from its ruling lines (tables/bordered.ts) before the layout, placed among the text as one region. */
export interface DetectedTable {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** The text at each grid position (a spanning cell's text at every position it covers). */
  rows: string[][];
  /** The cells, each once with its spans (document model rows: the cells starting in each row). */
  cells: TableCell[][];
}
