/**
 * How the code is laid out, checked: lib/ folders import downward only (by the layer list below,
 * which the README's diagram shows), so do the PDF reader's folders (by its own list), no two
 * files import each other through any chain, the console imports only types from lib/, and
 * nothing under app/ reaches the database directly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');

/**
 * lib/ from the bottom up: a folder may import its own layer's files and any lower layer's.
 * Folders sharing a layer may not import each other.
 */
export const LAYERS: string[][] = [
  ['errors', 'ids', 'version', 'config', 'text', 'http'],
  ['crypto', 'db', 'document', 'formats'],
  ['storage', 'search', 'chunking', 'embeddings', 'workers'],
  ['rerank'],
  ['auth'],
  ['context'],
  ['workflows'],
  ['webhooks'],
  ['events'],
  ['users', 'files'],
  ['extraction', 'knowledge-bases'],
  ['ingestion'],
  ['sources'],
  ['ops'],
  ['api'],
  ['mcp'],
];

const layerOf = new Map(LAYERS.flatMap((folders, rank) => folders.map((folder) => [folder, rank] as const)));

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolve(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = path.join(ROOT, spec.slice(2));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mts`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function importsOf(file: string): Import[] {
  const source = fs.readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const spec = match[3] ?? match[4];
    const target = resolve(file, spec);
    if (target) out.push({ from: file, to: target, typeOnly: Boolean(match[2]) });
  }
  return out;
}

/** The lib/ folder of a file ("errors" for lib/errors.ts, "files" for lib/files/service.ts). */
function libFolder(file: string): string | null {
  const rel = path.relative(path.join(ROOT, 'lib'), file);
  if (rel.startsWith('..')) return null;
  const [first] = rel.split(path.sep);
  return first.replace(/\.(ts|tsx|mts)$/, '');
}

const rel = (file: string) => path.relative(ROOT, file);

/** Strongly connected components of more than one node (or a node importing itself). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || edges.get(node)?.has(node)) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!indices.has(node)) visit(node);
  return found;
}

const libImports = sourceFiles(path.join(ROOT, 'lib')).flatMap(importsOf);

describe('lib/ layers', () => {
  it('every lib/ folder has a layer', () => {
    const folders = new Set(libImports.flatMap((i) => [libFolder(i.from), libFolder(i.to)]).filter((f): f is string => f !== null));
    for (const entry of fs.readdirSync(path.join(ROOT, 'lib'))) folders.add(entry.replace(/\.(ts|tsx|mts)$/, ''));
    expect([...folders].filter((folder) => !layerOf.has(folder))).toEqual([]);
  });

  it('imports point down only: no folder imports a higher layer or a folder beside it', () => {
    const upward = libImports
      .filter((i) => {
        const from = libFolder(i.from);
        const to = libFolder(i.to);
        if (from === null || to === null || from === to) return false;
        return (layerOf.get(to) ?? Infinity) >= (layerOf.get(from) ?? -1);
      })
      .map((i) => `${rel(i.from)} -> ${rel(i.to)}`);
    expect(upward).toEqual([]);
  });

  it('no file cycles anywhere under lib/', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of libImports) {
      if (!edges.has(i.from)) edges.set(i.from, new Set());
      edges.get(i.from)!.add(i.to);
    }
    expect(cycles(edges).map((component) => component.map(rel))).toEqual([]);
  });

  it('lib/ imports nothing from app/, components/ or test/', () => {
    const outward = libImports
      .filter((i) => ['app', 'components', 'test'].includes(rel(i.to).split(path.sep)[0]))
      .map((i) => `${rel(i.from)} -> ${rel(i.to)}`);
    expect(outward).toEqual([]);
  });

  it('the checks can fail: a planted upward import and a planted cycle are found', () => {
    const edges = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(edges)).toEqual([['a', 'b', 'c']]);
    expect(layerOf.get('api')).toBeGreaterThan(layerOf.get('db')!);
  });
});

/**
 * The PDF reader (lib/extraction/pdf/) from the bottom up, as its index.ts states: a unit (a
 * sub-folder, or a file at the reader's top) may import its own files and any lower unit's.
 * settings.ts, at the bottom, imports nothing of the reader; stages.ts sits below run/, which
 * reads pages through it; index.ts is the top. order/ and tables/ share a rank and may not
 * import each other (neither does now: both build on read/ and layout/ only).
 */
const PDF_UNITS: string[][] = [['settings.ts'], ['read'], ['layout'], ['order', 'tables'], ['ocr'], ['model'], ['stages.ts'], ['run'], ['index.ts']];

const PDF_DIR = path.join(ROOT, 'lib/extraction/pdf');
const pdfRankOf = new Map(PDF_UNITS.flatMap((units, rank) => units.map((unit) => [unit, rank] as const)));

/** The PDF reader's unit of a file ("read" for pdf/read/pdfium.ts, "stages.ts"), null outside the reader. */
function pdfUnit(file: string): string | null {
  const inside = path.relative(PDF_DIR, file);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return null;
  return inside.split(path.sep)[0];
}

/** The PDF reader's imports that break its order: up, or sideways within a rank. */
function pdfViolations(imports: readonly Import[]): string[] {
  return imports
    .filter((i) => {
      const from = pdfUnit(i.from);
      const to = pdfUnit(i.to);
      if (from === null || to === null || from === to) return false;
      return (pdfRankOf.get(to) ?? Infinity) >= (pdfRankOf.get(from) ?? -1);
    })
    .map((i) => `${rel(i.from)} -> ${rel(i.to)}`);
}

describe('the PDF reader', () => {
  const pdfImports = sourceFiles(PDF_DIR).flatMap(importsOf);

  it('every file and folder of lib/extraction/pdf/ has a rank', () => {
    const units = fs.readdirSync(PDF_DIR).filter((entry) => !entry.endsWith('.d.ts'));
    expect(units.filter((unit) => !pdfRankOf.has(unit))).toEqual([]);
  });

  it('imports point down only: settings.ts, read/, layout/, order/ and tables/, ocr/, model/, stages.ts, run/, index.ts', () => {
    expect(pdfImports.some((i) => pdfUnit(i.to) !== null && pdfUnit(i.to) !== pdfUnit(i.from))).toBe(true);
    expect(pdfViolations(pdfImports)).toEqual([]);
  });

  it('the check can fail: planted upward and sideways imports are found', () => {
    const at = (file: string) => path.join(PDF_DIR, file);
    const planted: Import[] = [
      { from: at('settings.ts'), to: at('read/text.ts'), typeOnly: true },
      { from: at('read/runs.ts'), to: at('layout/blocks.ts'), typeOnly: false },
      { from: at('order/columns.ts'), to: at('tables/bordered.ts'), typeOnly: false },
      { from: at('tables/bordered.ts'), to: at('order/columns.ts'), typeOnly: false },
      { from: at('model/document.ts'), to: at('stages.ts'), typeOnly: false },
      { from: at('stages.ts'), to: at('run/pages.ts'), typeOnly: false },
      { from: at('run/pages.ts'), to: at('index.ts'), typeOnly: false },
      { from: at('layout/blocks.ts'), to: at('read/text.ts'), typeOnly: false },
    ];
    expect(pdfViolations(planted)).toEqual(planted.slice(0, -1).map((i) => `${rel(i.from)} -> ${rel(i.to)}`));
  });
});

describe('app/ and components/', () => {
  const appImports = sourceFiles(path.join(ROOT, 'app')).flatMap(importsOf);
  const consoleImports = sourceFiles(path.join(ROOT, 'components')).flatMap(importsOf);

  it('nothing under app/ touches the database or the storage directly', () => {
    const direct = appImports
      .filter((i) => ['db', 'storage'].includes(libFolder(i.to) ?? ''))
      .map((i) => `${rel(i.from)} -> ${rel(i.to)}`);
    expect(direct).toEqual([]);
  });

  it('the console imports only types from lib/', () => {
    const values = consoleImports.filter((i) => libFolder(i.to) !== null && !i.typeOnly).map((i) => `${rel(i.from)} -> ${rel(i.to)}`);
    expect(values).toEqual([]);
  });
});

describe('the format readers', () => {
  const READER_DIRS = ['lib/extraction/pdf', 'lib/extraction/ocr', 'lib/extraction/office'].map((d) => path.join(ROOT, d));
  const readers = READER_DIRS.flatMap((d) => sourceFiles(d));
  const RENDERING = ['lib/document/render.ts', 'lib/document/escape.ts'].map((f) => path.join(ROOT, f));
  /** Code without its comments, so that a doc comment quoting Markdown is no Markdown written. */
  const code = (file: string) => fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  /** Markdown syntax a module would write: page markers, GFM delimiter rows, ATX heading or emphasis prefixes built in code. */
  const MARKDOWN_WRITING: [RegExp, string][] = [
    [/<!-- page /, 'a page marker'],
    [/\| ?-{3} ?\||' -{3} \|'/, 'a GFM table delimiter row'],
    [/'#'\.repeat\(|`#{1,6} \$\{/, 'an ATX heading'],
    [/`\*\*\$\{|'\*\*' ?\+/, 'bold marks'],
  ];

  it('exist where the check looks', () => {
    expect(readers.length).toBeGreaterThan(60);
  });

  it('import neither the renderer, nor its escaping, nor an HTML-to-Markdown converter', () => {
    const bad = readers.flatMap((file) => [
      ...importsOf(file)
        .filter((i) => RENDERING.includes(i.to))
        .map((i) => `${rel(file)} -> ${rel(i.to)}`),
      ...[...fs.readFileSync(file, 'utf8').matchAll(/from\s+['"](turndown|@joplin\/turndown-plugin-gfm|node-html-markdown)['"]/g)].map((m) => `${rel(file)} -> ${m[1]}`),
    ]);
    expect(bad).toEqual([]);
  });

  it('write no Markdown, and the renderer is the one writer of extracted Markdown and its tables', () => {
    // Everything that makes or reads extracted Markdown (lib/api writes the README's endpoint table, not a document).
    const extracted = ['lib/extraction', 'lib/document', 'lib/chunking', 'lib/knowledge-bases'].flatMap((d) => sourceFiles(path.join(ROOT, d)));
    const writers = extracted
      .filter((file) => file !== path.join(ROOT, 'lib/document/render.ts'))
      .flatMap((file) => MARKDOWN_WRITING.filter(([pattern]) => pattern.test(code(file))).map(([, what]) => `${rel(file)} writes ${what}`));
    expect(writers).toEqual([]);
  });

  it('the checks can fail: planted Markdown writing is found', () => {
    const planted = ["const row = `|${' --- |'.repeat(3)}`;", "out += `${'#'.repeat(level)} ${title}`;", 'parts.push(`<!-- page ${n} -->`);'];
    for (const line of planted) expect(MARKDOWN_WRITING.some(([pattern]) => pattern.test(line)), line).toBe(true);
  });
});
