/**
 * Entry of a PDF page thread, bundled on its own (lib/extraction/worker-bundle.ts): a thread loads pdf.js and
 * the page analysis only. Starting threads from the extraction worker's own bundle loaded every
 * format's packages (ExcelJS, mammoth, Turndown, …) once more in each thread, about 50 MB apiece.
 */
import { parentPort } from 'node:worker_threads';
import { runPdfRangeJob } from './thread-job';
import type { PdfRangeJob } from './threads';

// One range job at a time, for as long as the extraction process keeps the thread.
parentPort!.on('message', (job: PdfRangeJob) => void runPdfRangeJob(job, parentPort!));
