'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, ApiClientError, errorMessage } from '../api';
import type { DocumentBlock, ExtractionDocumentModel } from '../api-types';
import { Button, cx, EmptyState, ErrorState, Loading } from '../ui';
import { columnCount, InlineText, plainText, StructureTable } from './structure-table';

/*
 * The structure of an extracted document (GET /v1/extractions/{id}/document): its blocks in
 * reading order, each named by kind, in collapsible page (slide, sheet, …) sections; headings
 * indented by level, tables drawn as tables with their merged cells, lists with their items.
 */

type Section = Extract<DocumentBlock, { type: 'section' }>;

const SECTION_NAMES: Record<Section['kind'], string> = {
  page: 'Page',
  slide: 'Slide',
  sheet: 'Sheet',
  chapter: 'Chapter',
  message: 'Message',
  attachment: 'Attachment',
  part: 'Part',
};

/** Sections shown open at first; longer documents open only their first one. */
const OPEN_AT_MOST = 3;

function sectionTitle(section: Section): string {
  const kind = SECTION_NAMES[section.kind];
  const number = section.page !== undefined ? ` ${section.page}` : '';
  return section.name ? `${kind}${number}: ${section.name}` : `${kind}${number}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Every block below `blocks`, for the counts at the top. */
function eachBlock(blocks: readonly DocumentBlock[], visit: (b: DocumentBlock) => void): void {
  for (const b of blocks) {
    visit(b);
    if (b.type === 'list') for (const item of b.items) eachBlock(item.content, visit);
    if (b.type === 'quote' || b.type === 'footnote' || b.type === 'section') eachBlock(b.content, visit);
  }
}

/** "2 pages: 5 headings, 12 paragraphs, 1 table, 0 lists". */
function summary(model: ExtractionDocumentModel): string {
  const counts = { heading: 0, paragraph: 0, table: 0, list: 0 };
  eachBlock(model.blocks, (b) => {
    if (b.type in counts) counts[b.type as keyof typeof counts]++;
  });
  const parts = [plural(counts.heading, 'heading'), plural(counts.paragraph, 'paragraph'), plural(counts.table, 'table'), plural(counts.list, 'list')].join(', ');
  const kinds = new Set(model.blocks.flatMap((b) => (b.type === 'section' ? [b.kind] : [])));
  const sections = model.blocks.filter((b) => b.type === 'section').length;
  if (sections === 0) return parts;
  const unit = kinds.size === 1 ? SECTION_NAMES[[...kinds][0]].toLowerCase() : 'part';
  return `${plural(sections, unit)}: ${parts}`;
}

/** What kind of block it is, in words. */
function kindLabel(block: DocumentBlock): string {
  switch (block.type) {
    case 'heading':
      return `Heading ${block.level}`;
    case 'paragraph':
      return 'Paragraph';
    case 'list':
      return `${block.ordered ? 'Numbered list' : 'List'}, ${plural(block.items.length, 'item')}`;
    case 'table':
      return `Table, ${plural(block.total_rows ?? block.rows.length, 'row')} × ${plural(columnCount(block.rows), 'column')}`;
    case 'picture':
      return 'Picture';
    case 'code':
      return block.language ? `Code (${block.language})` : 'Code';
    case 'quote':
      return 'Quotation';
    case 'formula':
      return 'Formula';
    case 'footnote':
      return `Footnote ${block.label}`;
    case 'rule':
      return 'Dividing line';
    case 'preformatted':
      return 'Text kept as laid out';
    case 'section':
      return sectionTitle(block);
  }
}

function BlockBody({ block }: { block: DocumentBlock }) {
  switch (block.type) {
    case 'heading':
      return (
        <p className={cx('font-semibold text-slate-900', block.level <= 2 ? 'text-base' : 'text-sm')}>
          <InlineText runs={block.content} />
        </p>
      );
    case 'paragraph':
      return (
        <p className="line-clamp-3 text-sm text-slate-700">
          <InlineText runs={block.content} />
        </p>
      );
    case 'list': {
      const List = block.ordered ? 'ol' : 'ul';
      return (
        <List className={cx('space-y-1 pl-5 text-sm', block.ordered ? 'list-decimal' : 'list-disc')} start={block.ordered ? block.start : undefined}>
          {block.items.map((item, i) => (
            <li key={i} value={item.number}>
              {item.checked !== undefined && <span aria-label={item.checked ? 'Done' : 'Not done'}>{item.checked ? '☑ ' : '☐ '}</span>}
              {item.label && <span className="text-slate-500">{item.label} </span>}
              <Blocks blocks={item.content} bare />
            </li>
          ))}
        </List>
      );
    }
    case 'table':
      return <StructureTable table={block} label={kindLabel(block)} />;
    case 'picture':
      return (
        <p className="text-sm text-slate-700">
          {block.caption ? <InlineText runs={block.caption} /> : (block.alt ?? <span className="text-slate-500">No description</span>)}
        </p>
      );
    case 'code':
    case 'preformatted':
      return <pre className="max-h-48 overflow-auto rounded bg-slate-50 p-2 font-mono text-xs whitespace-pre">{block.text}</pre>;
    case 'formula':
      return <code className="block overflow-x-auto rounded bg-slate-50 p-2 text-xs">{block.latex}</code>;
    case 'quote':
    case 'footnote':
      return (
        <div className="border-l-2 border-slate-200 pl-3">
          <Blocks blocks={block.content} />
        </div>
      );
    case 'rule':
      return null;
    case 'section':
      return null; // drawn by SectionBlock
  }
}

/** One block: what kind it is (and its page, when it says), then its content; headings indented by level. */
function BlockRow({ block, bare }: { block: DocumentBlock; bare?: boolean }) {
  if (block.type === 'section') return <SectionBlock section={block} open={false} />;
  // Inside a list item a paragraph is just its text.
  if (bare && block.type === 'paragraph') {
    return (
      <li className="py-0.5">
        <BlockBody block={block} />
      </li>
    );
  }
  const indent = block.type === 'heading' ? { marginLeft: `${(block.level - 1) * 1.25}rem` } : undefined;
  return (
    <li className="py-1.5" style={indent} data-block-type={block.type}>
      <p className="mb-0.5 text-xs font-medium tracking-wide text-slate-500 uppercase">
        {kindLabel(block)}
        {block.prov?.page !== undefined && <span className="ml-2 font-normal normal-case">page {block.prov.page}</span>}
      </p>
      <BlockBody block={block} />
    </li>
  );
}

function Blocks({ blocks, bare }: { blocks: readonly DocumentBlock[]; bare?: boolean }) {
  if (bare && blocks.length === 1 && blocks[0].type === 'paragraph') return <BlockBody block={blocks[0]} />;
  return (
    <ul className="divide-y divide-slate-100">
      {blocks.map((b, i) => (
        <BlockRow key={i} block={b} bare={bare} />
      ))}
    </ul>
  );
}

function SectionBlock({ section, open: initiallyOpen }: { section: Section; open: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const title = sectionTitle(section);
  return (
    <li className="py-1" data-block-type="section">
      <section aria-label={title} className="rounded-md border border-slate-200">
        <h3>
          <button
            type="button"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
            className="flex w-full items-center justify-between gap-3 rounded-md px-3 py-2 text-left text-sm font-medium hover:bg-slate-50"
          >
            <span>
              <span aria-hidden="true" className="mr-2 inline-block w-3 text-slate-500">
                {open ? '▾' : '▸'}
              </span>
              {title}
            </span>
            <span className="text-xs font-normal text-slate-500">{plural(section.content.length, 'block')}</span>
          </button>
        </h3>
        {open && (
          <div className="border-t border-slate-100 px-3 pb-2">
            {section.content.length === 0 ? <p className="py-2 text-sm text-slate-600">Nothing was found here.</p> : <Blocks blocks={section.content} />}
          </div>
        )}
      </section>
    </li>
  );
}

/** The structure view of a completed extraction; `fileId` links back to the file to extract it again. */
export function StructureView({ extractionId, fileId }: { extractionId: string; fileId: string }) {
  const query = useQuery({
    queryKey: ['extraction', extractionId, 'document'],
    queryFn: () => api<ExtractionDocumentModel>(`/v1/extractions/${extractionId}/document`),
    retry: (failures, err) => !(err instanceof ApiClientError && err.status < 500) && failures < 1,
    staleTime: Infinity,
  });
  // Remounting the list opens or closes every section at once.
  const [allOpen, setAllOpen] = useState<{ open: boolean; round: number } | null>(null);

  if (query.isLoading) return <Loading label="Loading the structure…" />;
  if (query.error instanceof ApiClientError && query.error.code === 'DOCUMENT_NOT_AVAILABLE') {
    return (
      <EmptyState title="The structure of this text was not kept">
        It was extracted before Quarry kept the structure of documents. Extract the file again to see its headings, lists and tables here.{' '}
        <Link href={`/files/${fileId}`} className="font-medium text-indigo-700 underline">
          Go to the file
        </Link>
      </EmptyState>
    );
  }
  if (query.isError || !query.data) return <ErrorState error={`The structure could not be loaded. ${errorMessage(query.error)}`} onRetry={() => query.refetch()} />;

  const model = query.data;
  const sections = model.blocks.filter((b) => b.type === 'section').length;
  const firstSection = model.blocks.findIndex((b) => b.type === 'section');
  const openAtFirst = (i: number) => (allOpen ? allOpen.open : sections <= OPEN_AT_MOST || i === firstSection);
  return (
    <div aria-label="Document structure" role="region">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600" data-testid="structure-summary">
          {summary(model)}
        </p>
        {sections > 1 && (
          <div className="flex gap-2">
            <Button variant="ghost" onClick={() => setAllOpen({ open: true, round: (allOpen?.round ?? 0) + 1 })}>
              Open all
            </Button>
            <Button variant="ghost" onClick={() => setAllOpen({ open: false, round: (allOpen?.round ?? 0) + 1 })}>
              Close all
            </Button>
          </div>
        )}
      </div>
      {model.blocks.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-600">No text was found in this document.</p>
      ) : (
        <ul key={allOpen?.round ?? 0} className="divide-y divide-slate-100">
          {model.blocks.map((b, i) => (b.type === 'section' ? <SectionBlock key={i} section={b} open={openAtFirst(i)} /> : <BlockRow key={i} block={b} />))}
        </ul>
      )}
    </div>
  );
}
