'use client';

import type { ExtractionMode } from '../api-types';
import { MODE_NAMES } from '../files-common';
import { Field, Select } from '../ui';

/* The choice of how thoroughly files are read when they are turned into text. */

const MODE_HINTS: Record<ExtractionMode, string> = {
  simple: 'Fast: for files that already contain text.',
  normal: 'Good for most files.',
  advanced: 'Slower: also reads scans and photos of pages.',
};

export function ModeChoice({ label, value, onChange }: { label: string; value: ExtractionMode; onChange: (mode: ExtractionMode) => void }) {
  return (
    <Field label={label} hint={MODE_HINTS[value]}>
      {({ id, describedBy }) => (
        <Select id={id} aria-describedby={describedBy} value={value} onChange={(e) => onChange(e.target.value as ExtractionMode)}>
          {(Object.keys(MODE_NAMES) as ExtractionMode[]).map((mode) => (
            <option key={mode} value={mode}>
              {MODE_NAMES[mode]}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}
