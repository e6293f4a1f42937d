#!/usr/bin/env node
/**
 * The `fiscus` command. Subcommands are the modules in `commands/` (one file each, exporting
 * `command`); they are loaded only when used, so `fiscus test` never loads the server.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CliCommand, CliIO, consoleIO, UsageError } from './command';

const COMMANDS_DIR = path.join(__dirname, 'commands');

function commandNames(): string[] {
  if (!fs.existsSync(COMMANDS_DIR)) return [];
  return fs.readdirSync(COMMANDS_DIR)
    .filter((f) => f.endsWith('.js') || (f.endsWith('.ts') && !f.endsWith('.d.ts')))
    .map((f) => f.replace(/\.(js|ts)$/, ''))
    .filter((name, i, all) => all.indexOf(name) === i)
    .sort();
}

function loadCommand(name: string): CliCommand | undefined {
  if (!/^[a-z][a-z0-9-]*$/.test(name) || !commandNames().includes(name)) return undefined;
  const mod = require(path.join(COMMANDS_DIR, name)) as { command?: CliCommand };
  return mod.command;
}

function overview(): string {
  const lines = ['Usage: fiscus <command> [options]', '', 'Commands:'];
  for (const name of commandNames()) {
    try {
      const cmd = loadCommand(name);
      if (cmd) lines.push(`  ${cmd.name.padEnd(10)} ${cmd.summary}`);
    } catch (error) {
      // One broken command module must not hide the others.
      lines.push(`  ${name.padEnd(10)} (cannot be loaded: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  }
  lines.push('', 'Run `fiscus <command> --help` for the options of a command.');
  return lines.join('\n');
}

/** Runs the CLI with the arguments after `fiscus`; returns the exit code. */
export async function main(argv: string[], io: CliIO = consoleIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.err(overview());
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    const cmd = topic ? loadCommand(topic) : undefined;
    if (topic && !cmd) {
      io.err(`fiscus: unknown command '${topic}'\n\n${overview()}`);
      return 2;
    }
    io.out(cmd ? cmd.usage : overview());
    return 0;
  }
  const cmd = loadCommand(name);
  if (!cmd) {
    io.err(`fiscus: unknown command '${name}'\n\n${overview()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(cmd.usage);
    return 0;
  }
  try {
    return await cmd.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`fiscus ${cmd.name}: ${error.message}\n\n${cmd.usage}`);
      return 2;
    }
    io.err(`fiscus ${cmd.name}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
