import { Command, CommanderError } from 'commander';
import { version } from '../version.js';

/** The `switchyard` root every entry builds on (index.ts for the whole CLI, serve-entry.ts for serve). */
export function rootProgram(): Command {
  return new Command('switchyard')
    .description('Switchyard: the front door and nervous system of a multi-tenant workflow platform')
    .version(version, '-V, --version')
    .exitOverride();
}

/** Parses argv with a built program; commander's own exits (help, version, usage errors) keep their codes. */
export async function runProgram(program: Command, argv: string[]): Promise<void> {
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode);
    throw err;
  }
}
