declare module 'stopword' {
  /** English stop words. */
  export const eng: string[];
}
