import { registerServe } from './commands/serve.js';
import { rootProgram, runProgram } from './run.js';

// `switchyard serve ...` enters here (bin/switchyard.js): a program with only the serve command, so
// the daemon's process does not load the client commands and their modules (about 4 MB of an idle
// daemon's resident memory, docs/benchmarks.md). Every other command line goes through index.ts.

export async function runCli(argv: string[]): Promise<void> {
  const program = rootProgram().showHelpAfterError();
  registerServe(program);
  await runProgram(program, argv);
}
