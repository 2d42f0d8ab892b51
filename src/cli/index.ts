import type { Command } from 'commander';
import { registerBackup } from './commands/backup.js';
import { registerCompletion } from './commands/completion.js';
import { registerConfig } from './commands/config.js';
import { registerEvents } from './commands/events.js';
import { registerGrant } from './commands/grant.js';
import { registerInvite } from './commands/invite.js';
import { registerKey } from './commands/key.js';
import { registerListen } from './commands/listen.js';
import { registerMember } from './commands/member.js';
import { registerOrg } from './commands/org.js';
import { registerOutbox } from './commands/outbox.js';
import { registerProvider } from './commands/provider.js';
import { registerServe } from './commands/serve.js';
import { registerStatus } from './commands/status.js';
import { registerStorage } from './commands/storage.js';
import { registerTeam } from './commands/team.js';
import { registerWebhook } from './commands/webhook.js';
import { CliError } from './client.js';
import { writeJsonError } from './output.js';
import { rootProgram, runProgram } from './run.js';

// The commander root: global flags, then one file per noun in commands/. `serve` runs the daemon;
// every other command is a client of its gRPC admin API.

const commands = [
  registerServe,
  registerStatus,
  registerOrg,
  registerMember,
  registerTeam,
  registerGrant,
  registerKey,
  registerInvite,
  registerOutbox,
  registerWebhook,
  registerEvents,
  registerListen,
  registerProvider,
  registerStorage,
  registerBackup,
  registerCompletion,
  registerConfig,
];

export function buildProgram(options: { json?: boolean } = {}): Command {
  const program = rootProgram()
    .option(
      '--socket <path>',
      "the daemon's admin socket (default: SERVICE_GRPC_SOCKET, SERVICE_DATA_DIR/admin.sock, else the first found of `config set socket`, ./data/admin.sock, /var/lib/switchyard/admin.sock)",
    )
    .option('--addr <host:port>', "the daemon's TCP gRPC listener, instead of the socket")
    .option('--token <token>', 'admin token for --addr (default: SERVICE_ADMIN_TOKEN)')
    .option('--tls-ca <file>', "PEM certificate(s) to verify the daemon's TLS listener at --addr (SERVICE_GRPC_TLS_CERT)")
    .option('--json', 'print exactly one JSON value on stdout; errors as JSON on stderr')
    .option('--no-color', 'plain text, no colour or spinner, even in a terminal (as NO_COLOR=1 does)')
    // --no-color is NO_COLOR for this process, so everything that honours NO_COLOR follows it.
    .hook('preAction', (root) => {
      if (root.opts<{ color: boolean }>().color === false) process.env.NO_COLOR = '1';
    });
  if (options.json === true) {
    // Scripts get usage errors in the same JSON shape as every other failure.
    program.configureOutput({
      outputError: (text) => writeJsonError(new CliError('invalid_request', text.replace(/^error: /, '').trim())),
    });
  } else program.showHelpAfterError();
  for (const register of commands) register(program);
  // A noun without its verb (`switchyard org`) prints help for a person; a script asked for JSON
  // gets the usage error as JSON, like every other one.
  if (options.json === true) for (const group of program.commands) requireSubcommand(group);
  return program;
}

/** Makes a command that only groups others fail as a usage error when none of them is named. */
function requireSubcommand(group: Command): void {
  if (group.commands.length === 0) return;
  for (const sub of group.commands) requireSubcommand(sub);
  const names = group.commands.map((c) => c.name()).filter((n) => n !== 'help');
  group.allowExcessArguments(true).action(() => {
    const [given] = group.args;
    const what = given === undefined ? 'missing command' : `unknown command '${given}'`;
    group.error(`${what}: ${group.name()} takes ${names.join(', ')}`, { exitCode: 2, code: 'commander.missingCommand' });
  });
}

export async function runCli(argv: string[]): Promise<void> {
  await runProgram(buildProgram({ json: argv.includes('--json') }), argv);
}
