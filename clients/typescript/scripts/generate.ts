// npm run generate [-- --url http://host:3000] [-- --check]
// Writes src/generated/openapi.ts from the OpenAPI document: by default the one this repository's
// server would serve (built in-process from lib/api/endpoints), or the one a running server serves
// with --url. --check compares instead of writing and exits 1 when the file is stale.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { GENERATED_FILE, PACKAGE_ROOT, generateTypes } from './generate-types.js';

async function loadDocument(url: string | undefined): Promise<unknown> {
  if (url) {
    const res = await fetch(new URL('/v1/openapi.json', url));
    if (!res.ok) throw new Error(`GET ${res.url} answered ${res.status}`);
    return res.json();
  }
  // The repository's own document, as GET /v1/openapi.json serves it. Run through tsx with the
  // repository's tsconfig (the package script passes --tsconfig) so its @/ imports resolve.
  const openapi = path.resolve(PACKAGE_ROOT, '..', '..', 'lib', 'api', 'openapi.ts');
  const { openApiDocument } = (await import(pathToFileURL(openapi).href)) as { openApiDocument: () => unknown };
  return openApiDocument();
}

const args = process.argv.slice(2);
const urlAt = args.indexOf('--url');
const url = urlAt >= 0 ? args[urlAt + 1] : undefined;
const check = args.includes('--check');

const text = await generateTypes(await loadDocument(url));
const relative = path.relative(process.cwd(), GENERATED_FILE);
const current = fs.existsSync(GENERATED_FILE) ? fs.readFileSync(GENERATED_FILE, 'utf8') : '';
if (check) {
  if (current !== text) {
    console.error(`${relative} is stale: the OpenAPI document changed. Run \`npm run generate -w @quarry/client\`.`);
    process.exit(1);
  }
  console.log(`${relative} matches the OpenAPI document`);
} else if (current === text) {
  console.log(`${relative} is up to date`);
} else {
  fs.mkdirSync(path.dirname(GENERATED_FILE), { recursive: true });
  fs.writeFileSync(GENERATED_FILE, text);
  console.log(`${relative} written`);
}
