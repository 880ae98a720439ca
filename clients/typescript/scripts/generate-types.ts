// Turns Quarry's OpenAPI document into the TypeScript types the client is written against
// (src/generated/openapi.ts). Used by `npm run generate` and by the drift test at the repo root.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const GENERATED_FILE = path.join(PACKAGE_ROOT, 'src', 'generated', 'openapi.ts');

const HEADER = `/**
 * Generated from Quarry's OpenAPI document (GET /v1/openapi.json) by openapi-typescript.
 * Do not edit: run \`npm run generate -w @quarry/client\` after changing an endpoint.
 */

`;

/** The generated module's text for one OpenAPI document (deterministic for the same document). */
export async function generateTypes(document: unknown): Promise<string> {
  // A deep copy: openapi-typescript annotates the object it is given.
  const ast = await openapiTS(structuredClone(document) as OpenAPI3, {
    alphabetize: false,
    silent: true,
    // A request field with a default may be left out: keep it optional in the types.
    defaultNonNullable: false,
  });
  return HEADER + astToString(ast);
}
