'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { api, type Page } from '../api';
import type { ExtractionMode, KnowledgeBaseListItem } from '../api-types';
import { MODE_NAMES } from '../files-common';
import { Select } from '../ui';

/*
 * What happens to files after they are uploaded: turned into text right away (and how thoroughly),
 * and added to a knowledge base. Both choices are remembered in this browser.
 */

export interface IngestOptions {
  extract: boolean;
  mode: ExtractionMode;
  /** A knowledge base id, or '' for none. */
  kbId: string;
}

const STORAGE_KEY = 'quarry.upload-options';
const DEFAULTS: IngestOptions = { extract: true, mode: 'normal', kbId: '' };
const MODE_HINTS: Record<ExtractionMode, string> = {
  simple: 'Fast: for files that already contain text.',
  normal: 'Good for most files.',
  advanced: 'Slower: also reads scans and photos of pages (OCR).',
};

function load(): IngestOptions {
  try {
    const saved = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<IngestOptions> | null;
    if (!saved || typeof saved !== 'object') return DEFAULTS;
    return {
      extract: typeof saved.extract === 'boolean' ? saved.extract : DEFAULTS.extract,
      mode: saved.mode && saved.mode in MODE_NAMES ? saved.mode : DEFAULTS.mode,
      kbId: typeof saved.kbId === 'string' ? saved.kbId : '',
    };
  } catch {
    return DEFAULTS;
  }
}

/** The knowledge bases a file can be added to. */
export function useKnowledgeBaseChoices() {
  return useQuery({
    queryKey: ['knowledge-bases', 'choices'],
    queryFn: () => api<Page<KnowledgeBaseListItem>>('/v1/knowledge-bases?limit=100').then((r) => r.items),
    staleTime: 30_000,
  });
}

/** The remembered choices; the knowledge base is dropped when it no longer exists. */
export function useIngestOptions(): [IngestOptions, (patch: Partial<IngestOptions>) => void, KnowledgeBaseListItem[] | undefined] {
  const [options, setOptions] = useState<IngestOptions>(DEFAULTS);
  const kbs = useKnowledgeBaseChoices();
  useEffect(() => setOptions(load()), []);
  const change = (patch: Partial<IngestOptions>) =>
    setOptions((current) => {
      const next = { ...current, ...patch };
      try {
        window.localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        /* Private windows may refuse storage: the choice then lasts for this page only. */
      }
      return next;
    });
  const known = kbs.data;
  const effective = known && options.kbId && !known.some((kb) => kb.id === options.kbId) ? { ...options, kbId: '' } : options;
  return [effective, change, known];
}

/** The two choices shown beside the dropzone. */
export function IngestOptionsPanel({
  options,
  onChange,
  knowledgeBases,
}: {
  options: IngestOptions;
  onChange: (patch: Partial<IngestOptions>) => void;
  knowledgeBases: KnowledgeBaseListItem[] | undefined;
}) {
  const checkId = useId();
  const modeId = useId();
  const modeHintId = useId();
  const kbId = useId();
  const kbHintId = useId();
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold">After uploading</legend>
      <div>
        <div className="flex items-center gap-2">
          <input
            id={checkId}
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300"
            checked={options.extract}
            onChange={(e) => onChange({ extract: e.target.checked })}
          />
          <label htmlFor={checkId} className="text-sm font-medium">
            Turn into text right away
          </label>
        </div>
        {options.extract && (
          <div className="mt-2 pl-6">
            <label htmlFor={modeId} className="block text-sm text-slate-700">
              How to read the files
            </label>
            <Select id={modeId} aria-describedby={modeHintId} value={options.mode} onChange={(e) => onChange({ mode: e.target.value as ExtractionMode })} className="mt-1">
              {(Object.keys(MODE_NAMES) as ExtractionMode[]).map((mode) => (
                <option key={mode} value={mode}>
                  {MODE_NAMES[mode]}
                </option>
              ))}
            </Select>
            <p id={modeHintId} className="mt-1 text-xs text-slate-600">
              {MODE_HINTS[options.mode]}
            </p>
          </div>
        )}
      </div>
      <div>
        <label htmlFor={kbId} className="block text-sm font-medium">
          Add to knowledge base
        </label>
        <Select id={kbId} aria-describedby={kbHintId} value={options.kbId} onChange={(e) => onChange({ kbId: e.target.value })} className="mt-1">
          <option value="">None</option>
          {knowledgeBases?.map((kb) => (
            <option key={kb.id} value={kb.id}>
              {kb.name}
            </option>
          ))}
        </Select>
        <p id={kbHintId} className="mt-1 text-xs text-slate-600">
          {options.kbId
            ? 'The files are turned into text and then made searchable in this knowledge base.'
            : 'Optional: make the files searchable in a knowledge base.'}
        </p>
      </div>
    </fieldset>
  );
}
