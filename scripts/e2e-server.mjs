// Starts the production server for the end-to-end tests: builds first when the bundle is stale.
import { ensureBuild } from './lib/ensure-build.mjs';

ensureBuild({ quiet: true });
await import('./start.mjs');
