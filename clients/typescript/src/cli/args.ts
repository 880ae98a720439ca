// A small argument reader: positionals, --flag, --name value, --name=value, and flags whose value
// is optional (`--extract [mode]` takes the next word only when it is one of the allowed ones).

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface OptionSpec {
  /** boolean: no value; string: a value is required; optional: a value from `choices` may follow. */
  type: 'boolean' | 'string' | 'optional';
  choices?: readonly string[];
  alias?: string;
}

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | true | undefined>;
}

export function parseArgs(argv: readonly string[], specs: Record<string, OptionSpec>): ParsedArgs {
  const positionals: string[] = [];
  const options: Record<string, string | true | undefined> = {};
  const byAlias = new Map(Object.entries(specs).flatMap(([name, spec]) => (spec.alias ? [[spec.alias, name] as const] : [])));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const [rawName, inline] = arg.startsWith('--') ? splitOnce(arg.slice(2)) : [byAlias.get(arg.slice(1)) ?? arg.slice(1), undefined];
    const spec = specs[rawName];
    if (!spec) throw new UsageError(`unknown option ${arg.split('=')[0]}`);
    const check = (value: string) => {
      if (spec.choices && !spec.choices.includes(value)) throw new UsageError(`--${rawName} must be one of: ${spec.choices.join(', ')}`);
      return value;
    };
    if (spec.type === 'boolean') {
      if (inline !== undefined) throw new UsageError(`--${rawName} takes no value`);
      options[rawName] = true;
    } else if (inline !== undefined) {
      options[rawName] = check(inline);
    } else if (spec.type === 'string') {
      const value = argv[i + 1];
      if (value === undefined || (value.startsWith('-') && value !== '-')) throw new UsageError(`--${rawName} needs a value`);
      options[rawName] = check(value);
      i++;
    } else {
      const next = argv[i + 1];
      if (next !== undefined && spec.choices?.includes(next)) {
        options[rawName] = next;
        i++;
      } else {
        options[rawName] = true;
      }
    }
  }
  return { positionals, options };
}

function splitOnce(text: string): [string, string | undefined] {
  const at = text.indexOf('=');
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** A positive integer option, or the default. */
export function intOption(value: string | true | undefined, name: string, fallback: number, { min = 1, max = Infinity } = {}): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min}${max === Infinity ? '' : ` to ${max}`}`);
  return n;
}
