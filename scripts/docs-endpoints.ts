// npm run docs:endpoints — rewrites the README's table of operations from the endpoint list
// (lib/api/endpoints). test/endpoints.test.ts fails while the README's copy is stale.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withEndpointTable } from '@/lib/api/endpoint-table';

const readme = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');
fs.writeFileSync(readme, withEndpointTable(fs.readFileSync(readme, 'utf8')));
console.log('README.md: endpoint table updated');
