import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/**
 * Statements PGlite runs from a prepared form. PGlite's own `query()` hands a statement to the
 * database as six protocol calls (Parse, Describe, Bind, Describe, Execute, Sync), each a trip
 * into WebAssembly with its own result handling in JavaScript, and PostgreSQL parses and plans the
 * text again every time. Here a statement's text is parsed once into a named prepared statement
 * (its parameter types and columns described once), and each run after that is one call carrying
 * Bind, Execute and Sync; PostgreSQL keeps the plan once it finds a generic one as good. Should a
 * table change shape under it, PostgreSQL refuses the statement and it is prepared again.
 *
 * Results, errors and the serialisation of parameters are PGlite's own: the messages go through
 * PGlite's `execProtocol` and `parseResults`, values through the serializers of the parameter
 * types PostgreSQL reports, and a database error is the same `DatabaseError` with the statement
 * attached. The caller holds PGlite's locks (see `pglite-client.ts`).
 */

/** Statements kept prepared per database, least recently used dropped first. */
export const MAX_PREPARED = 256;
/** Longer statement texts (bulk inserts of many rows) run unnamed: they rarely recur. */
export const MAX_PREPARED_TEXT = 16_384;

interface Prepared {
  name: string;
  paramTypes: number[];
  /** The columns the statement returns, as described when it was prepared (none for NoData). */
  columns: BackendMessage[];
}

interface DatabaseErrorLike extends Error {
  code?: string;
  query?: string;
  params?: unknown[];
  queryOptions?: QueryOptions;
}

const { serialize } = protocol;

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  let size = 0;
  for (const part of parts) size += part.length;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * A prepared statement PostgreSQL can no longer use as it is: the tables it reads changed shape
 * ("cached plan must not change result type") or it was deallocated. Parsed again and run once more.
 */
function isStale(err: unknown): boolean {
  const e = err as DatabaseErrorLike;
  return e?.code === '26000' || (e?.code === '0A000' && /cached plan/.test(e.message));
}

/** Whether `statements.run` can take this query; blobs (COPY) and explicit parameter types go to PGlite. */
export function preparable(options: QueryOptions | undefined): boolean {
  return !options || (!options.blob && !options.paramTypes);
}

export class PgliteStatements {
  private readonly prepared = new Map<string, Prepared>();
  /** Names of dropped statements, closed at the start of the next call. */
  private closing: Uint8Array[] = [];
  private seq = 0;

  constructor(private readonly pg: PGlite) {}

  /** How many statements are kept prepared now. */
  get size(): number {
    return this.prepared.size;
  }

  /** Runs one statement. The caller holds PGlite's query lock (and its transaction lock outside a transaction). */
  async run<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    try {
      return await this.execute<T>(text, params, options);
    } catch (err) {
      if (!isStale(err) || !this.prepared.has(text)) throw this.describeError(err, text, params, options);
      this.drop(text);
      // Inside a transaction the error has aborted it: the next use prepares the statement again.
      if (this.pg.isInTransaction()) throw this.describeError(err, text, params, options);
      try {
        return await this.execute<T>(text, params, options);
      } catch (again) {
        throw this.describeError(again, text, params, options);
      }
    }
  }

  private async execute<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const named = text.length <= MAX_PREPARED_TEXT;
    let statement = named ? this.prepared.get(text) : undefined;
    if (statement) {
      // Most recently used last.
      this.prepared.delete(text);
      this.prepared.set(text, statement);
    } else {
      statement = await this.prepare(text, named ? `quarry_${++this.seq}` : '');
      if (named) this.remember(text, statement);
    }
    const serializers = this.pg.serializers;
    const own = options?.serializers;
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const oid = statement.paramTypes[i];
      const serializer = own?.[oid] ?? serializers[oid];
      return serializer ? serializer(param) : String(param);
    });
    const messages = await this.pg.execProtocolStream(
      concat([
        ...this.takeClosing(),
        serialize.bind({ statement: statement.name, values: values as (string | null)[] }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false, onNotice: options?.onNotice },
    );
    const described = statement.columns.length ? [...statement.columns, ...messages] : messages;
    return parse.parseResults(described, this.pg.parsers, options)[0] as Results<T>;
  }

  private async prepare(text: string, name: string): Promise<Prepared> {
    const messages = await this.pg.execProtocolStream(
      concat([
        ...this.takeClosing(),
        serialize.parse({ name, text }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const description = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs: number[] } | undefined;
    return { name, paramTypes: description?.dataTypeIDs ?? [], columns: messages.filter((m) => m.name === 'rowDescription') };
  }

  private remember(text: string, statement: Prepared): void {
    this.prepared.set(text, statement);
    if (this.prepared.size <= MAX_PREPARED) return;
    const oldest = this.prepared.keys().next().value as string;
    this.drop(oldest);
  }

  private drop(text: string): void {
    const statement = this.prepared.get(text);
    if (!statement) return;
    this.prepared.delete(text);
    this.closing.push(serialize.close({ type: 'S', name: statement.name }));
  }

  private takeClosing(): Uint8Array[] {
    if (this.closing.length === 0) return [];
    const out = this.closing;
    this.closing = [];
    return out;
  }

  /** PGlite's own error, with the statement attached as PGlite's `query()` attaches it. */
  private describeError(err: unknown, text: string, params: unknown[], options: QueryOptions | undefined): unknown {
    if (err instanceof Error && typeof (err as DatabaseErrorLike).code === 'string') {
      const e = err as DatabaseErrorLike;
      e.query = text;
      e.params = params;
      e.queryOptions = options;
    }
    return err;
  }
}
