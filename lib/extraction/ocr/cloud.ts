/**
 * The 'cloud' OCR provider: an HTTP endpoint configured by QUARRY_OCR_CLOUD_URL (and optionally
 * QUARRY_OCR_CLOUD_TOKEN, sent as a Bearer token). Each image (or rendered PDF page) is POSTed
 * as the raw bytes with the image's Content-Type; the answer must be JSON
 * `{"text": string, "confidence": number 0-100}`. 60 s timeout, redirects are not followed.
 */
import fs from 'node:fs';
import { ExtractionError } from '../types';
import { abortError, IMAGE_CONTENT_TYPES, tidyCjkSpacing } from './common';
import { imageHasInk } from './ink';
import { PdfPageRenderer } from './render';
import { imageFormatOf } from './service';
import type { OcrOutput, OcrService } from './types';

export const CLOUD_OCR_TIMEOUT_MS = 60_000;
/** Answers larger than this are refused (a page of text is a few kilobytes). */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface CloudOcrConfig {
  url: string;
  token?: string;
  timeoutMs?: number;
}

function parseCloudUrl(value: string | undefined): URL | null {
  if (!value?.trim()) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/** The endpoint from the environment, or null when QUARRY_OCR_CLOUD_URL is unset or not http(s). */
export function cloudOcrConfigFromEnv(env: NodeJS.ProcessEnv = process.env): CloudOcrConfig | null {
  const url = parseCloudUrl(env.QUARRY_OCR_CLOUD_URL);
  if (!url) return null;
  const token = env.QUARRY_OCR_CLOUD_TOKEN?.trim();
  return { url: url.href, ...(token ? { token } : {}) };
}

/** Whether ocr_provider 'cloud' can work: lets the API refuse such requests up front. */
export { cloudOcrConfigured } from '../formats';

const NOT_CONFIGURED =
  'Cloud OCR is not configured on this server (QUARRY_OCR_CLOUD_URL is not set); use ocr_provider "default" or "tesseract"';

function failed(message: string): ExtractionError {
  return new ExtractionError('OCR_FAILED', `Cloud OCR failed: ${message}`);
}

async function readLimited(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_RESPONSE_BYTES) throw failed('the answer is too large');
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw failed('the answer is too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Validates the endpoint's JSON answer. */
export function parseCloudAnswer(body: string): OcrOutput {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw failed('the answer is not JSON');
  }
  const answer = json as { text?: unknown; confidence?: unknown };
  if (typeof json !== 'object' || json === null || typeof answer.text !== 'string') throw failed('the answer has no "text" string');
  if (typeof answer.confidence !== 'number' || !Number.isFinite(answer.confidence)) throw failed('the answer has no numeric "confidence"');
  const text = tidyCjkSpacing(answer.text.replace(/\r\n?/g, '\n')).trim();
  const words = text.split(/\s+/).filter((w) => w.length > 0).length;
  const confidence = Math.min(100, Math.max(0, answer.confidence));
  return { text, words, meanConfidence: words > 0 ? confidence : 0 };
}

/** An answer without words for a page without ink is a blank page (ink.ts). */
async function settle(out: OcrOutput, file: string): Promise<OcrOutput> {
  return out.words === 0 && !(await imageHasInk(file)) ? { ...out, blank: true } : out;
}

export class CloudOcrService implements OcrService {
  readonly engine = 'cloud';
  private readonly renderer: PdfPageRenderer;

  constructor(
    private readonly config: CloudOcrConfig | null,
    tmpDir: string,
    renderer?: PdfPageRenderer,
  ) {
    this.renderer = renderer ?? new PdfPageRenderer(tmpDir);
  }

  private endpoint(): CloudOcrConfig {
    if (!this.config) throw new ExtractionError('OCR_FAILED', NOT_CONFIGURED);
    return this.config;
  }

  async recognizeImage(file: string, _language: string | undefined, signal: AbortSignal): Promise<OcrOutput> {
    const config = this.endpoint();
    const format = await imageFormatOf(file);
    return settle(await this.post(config, await fs.promises.readFile(file), IMAGE_CONTENT_TYPES[format], signal), file);
  }

  async recognizePdfPage(pdfPath: string, page: number, _language: string | undefined, signal: AbortSignal): Promise<OcrOutput> {
    const config = this.endpoint();
    const rendered = await this.renderer.render(pdfPath, page, signal);
    try {
      return settle(await this.post(config, await fs.promises.readFile(rendered.path), 'image/png', signal), rendered.path);
    } finally {
      await fs.promises.rm(rendered.path, { force: true });
    }
  }

  private async post(config: CloudOcrConfig, body: Buffer, contentType: string, signal: AbortSignal): Promise<OcrOutput> {
    if (signal.aborted) throw abortError(signal);
    const timeoutMs = config.timeoutMs ?? CLOUD_OCR_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { 'content-type': contentType, accept: 'application/json' };
    if (config.token) headers.authorization = `Bearer ${config.token}`;
    let response: Response;
    try {
      response = await fetch(config.url, {
        method: 'POST',
        headers,
        body: new Uint8Array(body),
        redirect: 'manual',
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch (err) {
      if (signal.aborted) throw abortError(signal);
      if (timeout.aborted) throw failed(`no answer within ${Math.round(timeoutMs / 1000)} s`);
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw failed(`the service could not be reached (${cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err))})`);
    }
    try {
      if (response.status >= 300 && response.status < 400) throw failed(`the service answered with a redirect (HTTP ${response.status}), which is not followed`);
      if (!response.ok) throw failed(`the service answered HTTP ${response.status}`);
      return parseCloudAnswer(await readLimited(response));
    } catch (err) {
      if (signal.aborted) throw abortError(signal);
      if (timeout.aborted) throw failed(`no answer within ${Math.round(timeoutMs / 1000)} s`);
      throw err;
    } finally {
      await response.body?.cancel().catch(() => {});
    }
  }

  async close(): Promise<void> {
    await this.renderer.close();
  }
}

/**
 * The cloud OCR client; `config` defaults to the environment. With no endpoint configured every
 * call fails with OCR_FAILED (check `cloudOcrConfigured()` before accepting such a task).
 */
export function createCloudOcrEngine(tmpDir: string, config: CloudOcrConfig | null = cloudOcrConfigFromEnv()): OcrService {
  return new CloudOcrService(config, tmpDir);
}
