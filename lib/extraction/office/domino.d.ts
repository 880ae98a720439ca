// The package's own declarations name the module "domino" (its old name), not the name it is
// published under; this covers the one function used here (the DOM types are TypeScript's own).
declare module '@mixmark-io/domino' {
  const domino: {
    createDocument(html?: string, force?: boolean): Document;
  };
  export default domino;
}
