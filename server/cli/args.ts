/** A small command-line parser: positionals plus `--flag`, `--option value` and `--option=value`. */
import { UsageError } from './command';

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string>;
  flags: Set<string>;
}

/** `valued` options take a value; `flags` take none. Anything else starting with `--` is a usage error. */
export function parseArgs(args: string[], valued: string[], flags: string[] = []): ParsedArgs {
  const parsed: ParsedArgs = { positionals: [], options: {}, flags: new Set() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      parsed.positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      if (arg.startsWith('-') && arg !== '-' && arg !== '-h') throw new UsageError(`unknown option ${arg}`);
      if (arg === '-h') parsed.flags.add('help');
      else parsed.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (flags.includes(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      parsed.flags.add(name);
    } else if (valued.includes(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
      if (name in parsed.options) throw new UsageError(`--${name} is given twice`);
      parsed.options[name] = value;
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return parsed;
}
