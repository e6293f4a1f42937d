/**
 * The contract of a `fiscus` subcommand. Each lives in `commands/<name>.ts` and exports `command`;
 * the dispatcher finds them by file name, so adding a command never touches shared files.
 */

/** Where a command writes; tests pass their own to capture output. */
export interface CliIO {
  out(line: string): void;
  err(line: string): void;
  /** Folder relative paths are resolved against. */
  cwd: string;
}

export interface CliCommand {
  name: string;
  /** One line for `fiscus --help`. */
  summary: string;
  /** Full usage text for `fiscus <name> --help` and usage errors. */
  usage: string;
  /** Returns the process exit code: 0 success, 1 failure, 2 usage error. */
  run(args: string[], io: CliIO): Promise<number> | number;
}

/** Thrown for bad command lines: the dispatcher prints the message and the usage, and exits with 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const consoleIO: CliIO = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  cwd: process.cwd(),
};
