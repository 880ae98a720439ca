// Progress bars on stderr (cli-progress), drawn only on a terminal so that pipes and logs get
// plain lines from the commands instead.
import cliProgress from 'cli-progress';
import type { WaitProgress } from '../wait.js';

export interface Bar {
  update(value: number, detail?: string): void;
  stop(): void;
}

const NONE: Bar = { update() {}, stop() {} };

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function bar(label: string, total: number, stream: NodeJS.WriteStream, enabled: boolean, initialDetail: string): Bar {
  if (!enabled) return NONE;
  const width = Math.max(...[label.length, 12]);
  const single = new cliProgress.SingleBar(
    {
      stream,
      format: `{label} |{bar}| {percentage}% {detail}`,
      barsize: 30,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      fps: 10,
      // Unicode blocks, as cli-progress's shades_classic preset.
      barCompleteChar: '\u2588',
      barIncompleteChar: '\u2591',
    },
    cliProgress.Presets.shades_classic,
  );
  single.start(total, 0, { label: label.padEnd(width).slice(0, 40), detail: initialDetail });
  return {
    update: (value, detail) => single.update(Math.min(value, total), detail === undefined ? {} : { detail }),
    stop: () => single.stop(),
  };
}

/** Bytes of one upload; without a known size the bar shows the bytes sent only. */
export function uploadBar(label: string, size: number | undefined, stream: NodeJS.WriteStream, enabled: boolean): Bar {
  const total = size && size > 0 ? size : 1;
  const inner = bar(label, total, stream, enabled, size === undefined ? '' : `0 B/${formatBytes(size)}`);
  return {
    update: (sent) => inner.update(size === undefined ? 0 : sent, size === undefined ? `${formatBytes(sent)} sent` : `${formatBytes(sent)}/${formatBytes(size)}`),
    stop: () => inner.stop(),
  };
}

export function describeProgress(progress: WaitProgress): string {
  if (progress.stage === 'indexing' && progress.chunkTotal !== undefined) return `indexing ${progress.chunksWritten}/${progress.chunkTotal} chunks`;
  return progress.stage;
}

/** A job's percent (extraction progress, then chunks written) with its stage as text. */
export function waitBar(label: string, stream: NodeJS.WriteStream, enabled: boolean): { bar: Bar; onProgress: (p: WaitProgress) => void } {
  const inner = bar(label, 100, stream, enabled, 'queued');
  return { bar: inner, onProgress: (p) => inner.update(p.percent ?? 0, describeProgress(p)) };
}
