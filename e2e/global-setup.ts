import fs from 'node:fs';

/** Fails clearly when the browser is missing (Playwright's own download does not work here). */
export default async function globalSetup() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    throw new Error(`Chromium was not found at ${chromium}: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH`);
  }
}
