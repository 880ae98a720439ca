// The `quarry` command: a thin layer over QuarryClient. Progress goes to stderr, results to stdout
// (one JSON object per line with --json).
import { QuarryClient, CLIENT_VERSION } from '../client.js';
import { extractCommand, kbCommand, searchCommand, uploadCommand } from './commands.js';
import { citationsCommand, sourcesCommand } from './sources.js';
import { EXIT, reportError, type CommandContext, type Io } from './report.js';

export { EXIT } from './report.js';

export const USAGE = `quarry ${CLIENT_VERSION}: the Quarry API from the command line

Usage:
  quarry upload <files…> [--extract [simple|normal|advanced]] [--kb <kb_id>] [--tags a,b]
                         [--metadata <json>] [--dedupe] [--wait] [--json]
  quarry extract <file_id> [--mode simple|normal|advanced] [--language en|zh|ja|ko]
                           [--wait] [--output <file.md>] [--json]
  quarry search <kb_id> "<query>" [--hybrid] [--top-k <n>] [--json]
  quarry kb ls [--json]
  quarry sources ls [--kb <kb_id>] [--json]
  quarry sources get <source_id> [--json]
  quarry sources create <url|web|s3> --kb <kb_id> [--url <url>] [--bucket <b>] [--prefix <p>]
                        [--config <json|@file>] [--credentials <json|@file>] [--from <source.json>]
                        [--name <name>] [--schedule <6h|cron>] [--timezone <tz>]
                        [--mode simple|normal|advanced] [--no-sync | --wait] [--json]
  quarry sources sync <source_id> [--wait] [--json]
  quarry sources runs <source_id> [<run_id>] [--json]
  quarry citations verify <chunk_…[@version] | doc_…@version | chunk_…:doc_…@version>…
                          [--file <citations.json|->] [--no-source-check] [--json]

Options:
  --extract [mode]  start an extraction with each upload (default mode normal)
  --kb <kb_id>      also add each upload to this knowledge base (extracts it first)
  --wait            wait for the extraction (or, with --kb, the document; or the sync) to finish
  --timeout <s>     give up waiting after this many seconds
  --json            print results as JSON, one object per line

Environment:
  QUARRY_URL        the server (default http://localhost:3000)
  QUARRY_API_KEY    an API key (sk_live_… or sk_test_…)

Exit codes: 0 done, 1 the API answered an error, 2 wrong usage, 3 an extraction, document or
sync failed, 4 the server could not be reached, 5 a wait timed out.
`;

/** Runs one command and answers its exit code. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  const note = (line: string) => void io.stderr.write(`${line}\n`);
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    (command ? io.stdout : io.stderr).write(USAGE);
    return command ? EXIT.ok : EXIT.usage;
  }
  if (command === '--version' || command === 'version') {
    io.stdout.write(`${CLIENT_VERSION}\n`);
    return EXIT.ok;
  }
  const commands: Record<string, (ctx: CommandContext, args: string[]) => Promise<number>> = {
    upload: uploadCommand,
    extract: extractCommand,
    search: searchCommand,
    kb: kbCommand,
    sources: sourcesCommand,
    citations: citationsCommand,
  };
  const handler = commands[command];
  if (!handler) {
    note(`quarry: unknown command "${command}" (see quarry help)`);
    return EXIT.usage;
  }
  const apiKey = io.env.QUARRY_API_KEY;
  if (!apiKey) {
    note('quarry: set QUARRY_API_KEY to an API key (and QUARRY_URL to the server, default http://localhost:3000)');
    return EXIT.usage;
  }
  const client = new QuarryClient({ baseUrl: io.env.QUARRY_URL || 'http://localhost:3000', apiKey });
  const json = rest.includes('--json');
  const ctx: CommandContext = {
    client,
    io,
    bars: !!io.stderr.isTTY && !json,
    out: (line) => void io.stdout.write(`${line}\n`),
    note,
  };
  try {
    return await handler(ctx, rest);
  } catch (err) {
    return reportError(err, ctx);
  }
}
