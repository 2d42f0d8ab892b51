import { Command, CommanderError, Help, type Option } from 'commander';
import { version } from '../version.js';

/** The `switchyard` root every entry builds on (index.ts for the whole CLI, serve-entry.ts for serve). */
export function rootProgram(): Command {
  return new Command('switchyard')
    .description('Switchyard: the front door and nervous system of a multi-tenant workflow platform')
    .version(version, '-V, --version')
    .exitOverride()
    .configureHelp({ optionDescription: describeOption });
}

/** Help's text for an option, with "(required)" on the ones a command cannot run without. */
function describeOption(this: Help, option: Option): string {
  const text = Help.prototype.optionDescription.call(this, option);
  return option.mandatory ? `${text} (required)` : text;
}

/** Exit code of a usage error (a missing or unknown option, a bad choice), as the contract's CLI section says. */
const USAGE_EXIT_CODE = 2;

/** Parses argv with a built program; help and version exit 0, and every usage error commander reports exits 2. */
export async function runProgram(program: Command, argv: string[]): Promise<void> {
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : USAGE_EXIT_CODE);
    throw err;
  }
}
