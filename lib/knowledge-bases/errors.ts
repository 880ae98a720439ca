/** A problem with one document's indexing: the document ends failed with this code and message. */
export class IndexingError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'IndexingError';
  }
}
