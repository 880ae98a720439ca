/** The identity behind a request: an API key, the administrator key, or a console user. */
export interface Principal {
  keyId: string;
  name: string;
  scopes: string[];
  allowedIps: string[] | null;
  /** When the credential stops working (null or absent: never). */
  expiresAt?: Date | null;
  /**
   * The knowledge bases an API key is limited to (null or absent: not limited, as console sessions
   * and the administrator key are). Empty once all of them were deleted: it then reaches nothing.
   * What that means in each area is decided in lib/auth/reach.ts.
   */
  knowledgeBaseIds?: string[] | null;
}
