export { QuarryClient, createQuarryClient, CLIENT_VERSION, type QuarryClientOptions } from './client.js';
export { QuarryError, QuarryJobFailedError, QuarryTimeoutError, type FailedJob, type JobKind } from './errors.js';
export { multipartUpload, type UploadOptions, type UploadSource } from './upload.js';
export { documentProgress, extractionProgress, sourceRunProgress, type WaitOptions, type WaitProgress } from './wait.js';
export { type Page, type PaginateOptions } from './paginate.js';
export {
  verifyServiceSignature,
  verifyStandardSignature,
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookInput,
  type WebhookEvent,
  type WebhookHeaders,
} from './webhooks.js';
export type * from './types.js';
