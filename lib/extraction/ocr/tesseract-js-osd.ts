/**
 * Page orientation for tesseract.js: Tesseract's orientation detection (OSD, `worker.detect`)
 * with @tesseract.js-data/osd, in a worker of its own (OSD needs the legacy engine and the osd
 * model, recognition neither), and the image turned upright before it is recognised. This gives
 * the answers of the native engine's `--psm 1`: on phototest turned by 90°, 180° and 270° it
 * reports 270, 180 and 90 (the clockwise turn that puts the text upright).
 */
import path from 'node:path';
import type Tesseract from 'tesseract.js';
import { MIN_ORIENTATION_CONFIDENCE } from './common';
import { decodeWithCanvas, encodeGreyPng, rotateRaster } from './raster';
import { raceAbort, startWorker, tesseractJsDataFile, type Worker } from './tesseract-js-worker';


export interface Orientation {
  /** Clockwise turn (0, 90, 180, 270) that makes the text upright. */
  degrees: number;
  confidence: number;
}

export class TesseractJsOrientation {
  private worker: Promise<Worker> | null = null;

  constructor(private readonly langDir: string) {}

  /** Whether the osd data is installed (@tesseract.js-data/osd). */
  static available(): boolean {
    return tesseractJsDataFile('osd') !== null;
  }

  async detect(image: Buffer, signal: AbortSignal): Promise<Orientation | null> {
    if (!this.worker) {
      // debug_file: OSD's diagnostics ("Too few characters", "Invalid resolution") go nowhere.
      const starting = startWorker(this.langDir, ['osd'], true).then(async (worker) => {
        await worker.setParameters({ debug_file: '/dev/null' } as Partial<Tesseract.WorkerParams>);
        return worker;
      });
      this.worker = starting;
      starting.catch(() => {
        if (this.worker === starting) this.worker = null;
      });
    }
    const worker = await raceAbort(this.worker, signal);
    try {
      const { data } = await raceAbort(worker.detect(image), signal);
      if (data.orientation_degrees === null || data.orientation_confidence === null) return null;
      return { degrees: data.orientation_degrees, confidence: data.orientation_confidence };
    } catch (err) {
      // A WebAssembly job cannot be interrupted: the worker goes with the cancelled task.
      if (signal.aborted) {
        await this.close();
        throw err;
      }
      // OSD finds nothing on a page with too little text: read it as it is.
      return null;
    }
  }

  /** The image turned upright when OSD is sure it is not, else the image as it is. */
  async upright(image: Buffer, signal: AbortSignal): Promise<Buffer> {
    const found = await this.detect(image, signal);
    if (!found || found.degrees % 360 === 0 || found.confidence < MIN_ORIENTATION_CONFIDENCE) return image;
    return encodeGreyPng(rotateRaster(await decodeWithCanvas(image), found.degrees));
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.then((w) => w.terminate()).catch(() => {});
  }
}

/** The langPath directory shared by a task's tesseract.js workers. */
export function tesseractJsLangDir(tmpDir: string): string {
  return path.join(tmpDir, 'tesseract.js-lang');
}
