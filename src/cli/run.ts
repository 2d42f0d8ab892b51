import { CommanderError, type Command } from 'commander';

/** Parses argv with a built program; commander's own exits (help, version, usage errors) keep their codes. */
export async function runProgram(program: Command, argv: string[]): Promise<void> {
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode);
    throw err;
  }
}
