import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { ApiError } from '@/lib/errors';
import { ContainerProbe } from './containers';
import { containerMaxBytes, maxBytes, MAX_UPLOAD_BYTES, sniffHead, SNIFF_BYTES, type FileTypeEntry } from './types';

/**
 * Passes an upload through while deciding its type from the first bytes, enforcing that
 * type's size limit as the bytes arrive, hashing them, and checking text formats are UTF-8.
 * It fails the stream (so nothing more is stored) at the first byte over the limit. Zip and OLE
 * containers are decided at the end, from their entries (containers.ts); until then the limit is
 * the largest of the types they may be.
 */
export class UploadInspector extends Transform {
  type: FileTypeEntry | undefined;
  size = 0;
  private head: Buffer[] = [];
  private headLength = 0;
  private readonly hash: Hash = createHash('sha256');
  private decoder: TextDecoder | undefined;
  private container: ContainerProbe | undefined;

  constructor(private readonly filename: string) {
    super();
  }

  get sha256(): string {
    return this.hash.copy().digest('hex');
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    const limit = this.type ? maxBytes(this.type) : this.container ? containerMaxBytes(this.container.kind) : MAX_UPLOAD_BYTES;
    if (this.size > limit) {
      callback(this.tooLarge(limit));
      return;
    }
    this.hash.update(chunk);
    if (this.container) {
      this.container.push(chunk);
      callback(null, chunk);
      return;
    }
    if (this.type) {
      callback(this.checkText(chunk), chunk);
      return;
    }
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < SNIFF_BYTES) {
      callback();
      return;
    }
    this.decide().then((head) => callback(this.checkText(head), head), callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.size === 0) {
      callback(new ApiError('INVALID_FILE', 'The uploaded file is empty', { field: 'file', reason: 'empty' }));
      return;
    }
    const finish = (rest: Buffer | null) => {
      const error = (rest && this.checkText(rest)) ?? this.endText();
      if (error) callback(error);
      else callback(null, rest);
    };
    if (this.container) this.decideContainer().then(() => finish(null), callback);
    else if (this.type) finish(null);
    else {
      this.decide()
        .then(async (head) => {
          if (this.container) await this.decideContainer();
          return head;
        })
        .then(finish, callback);
    }
  }

  /** Decides the type from the bytes held so far and returns them for passing on. */
  private async decide(): Promise<Buffer> {
    const head = Buffer.concat(this.head);
    this.head = [];
    const verdict = await sniffHead(head, this.filename);
    if ('container' in verdict) {
      this.container = new ContainerProbe(verdict.container, head);
      return head;
    }
    this.setType(verdict.type);
    return head;
  }

  private async decideContainer(): Promise<void> {
    this.setType(this.container!.decide(this.filename));
  }

  private setType(type: FileTypeEntry): void {
    this.type = type;
    if (this.size > maxBytes(type)) throw this.tooLarge(maxBytes(type));
    if (type.text) this.decoder = new TextDecoder('utf-8', { fatal: true });
  }

  private checkText(chunk: Buffer): ApiError | null {
    if (!this.decoder) return null;
    if (chunk.includes(0)) return this.notUtf8();
    try {
      this.decoder.decode(chunk, { stream: true });
      return null;
    } catch {
      return this.notUtf8();
    }
  }

  private endText(): ApiError | null {
    if (!this.decoder) return null;
    try {
      this.decoder.decode();
      return null;
    } catch {
      return this.notUtf8();
    }
  }

  private tooLarge(limit: number): ApiError {
    const mb = Math.round(limit / (1024 * 1024));
    const what = this.type ? `${this.type.extension} files` : 'uploads';
    return new ApiError('FILE_TOO_LARGE', `File too large: ${what} may be at most ${mb} MB`, {
      max_size_mb: mb,
      ...(this.type ? { extension: this.type.extension } : {}),
    });
  }

  private notUtf8(): ApiError {
    return new ApiError('UNSUPPORTED_FORMAT', `The file is named ${this.type?.extension} but is not valid UTF-8 text`, {
      extension: this.type?.extension,
      reason: 'text files must be UTF-8',
    });
  }
}
