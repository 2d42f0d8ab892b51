import type { Command } from 'commander';
import { CliError } from './client.js';
import { applyHiddenAliases } from './options.js';
import { writeJsonError } from './output.js';
import { rootProgram, runProgram } from './run.js';

// The commander root: global flags, then one file per noun in commands/. `serve` runs the daemon;
// every other command is a client of its gRPC admin API.

type Register = (program: Command) => void;

/**
 * Every noun's module, in help order, imported only when needed: a command line loads the module
 * of the noun it names, so a command starts without parsing the others (help, completion and an
 * unknown noun load them all).
 */
const commands: Record<string, () => Promise<Register>> = {
  serve: async () => (await import('./commands/serve.js')).registerServe,
  status: async () => (await import('./commands/status.js')).registerStatus,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctor,
  // `config set|get|unset` (the CLI's own file) and `config show` (the daemon's configuration).
  config: async () => {
    const [{ registerConfig }, { registerConfigShow }] = await Promise.all([
      import('./commands/config.js'),
      import('./commands/config-show.js'),
    ]);
    return (program) => {
      registerConfig(program);
      registerConfigShow(program);
    };
  },
  org: async () => (await import('./commands/org.js')).registerOrg,
  member: async () => (await import('./commands/member.js')).registerMember,
  principal: async () => (await import('./commands/principal.js')).registerPrincipal,
  team: async () => (await import('./commands/team.js')).registerTeam,
  grant: async () => (await import('./commands/grant.js')).registerGrant,
  permissions: async () => (await import('./commands/permissions.js')).registerPermissions,
  key: async () => (await import('./commands/key.js')).registerKey,
  invite: async () => (await import('./commands/invite.js')).registerInvite,
  outbox: async () => (await import('./commands/outbox.js')).registerOutbox,
  webhook: async () => (await import('./commands/webhook.js')).registerWebhook,
  events: async () => (await import('./commands/events.js')).registerEvents,
  listen: async () => (await import('./commands/listen.js')).registerListen,
  workflow: async () => (await import('./commands/workflow.js')).registerWorkflow,
  schedule: async () => (await import('./commands/schedule.js')).registerSchedule,
  job: async () => (await import('./commands/job.js')).registerJob,
  portal: async () => (await import('./commands/portal.js')).registerPortal,
  provider: async () => (await import('./commands/provider.js')).registerProvider,
  audit: async () => (await import('./commands/audit.js')).registerAudit,
  storage: async () => (await import('./commands/storage.js')).registerStorage,
  backup: async () => (await import('./commands/backup.js')).registerBackup,
  runtime: async () => (await import('./commands/runtime.js')).registerRuntime,
  completion: async () => (await import('./commands/completion.js')).registerCompletion,
};

/** Global options that take a value (the value is not the noun). */
const globalValueOptions = new Set(['--socket', '--addr', '--token', '--tls-ca']);

/** The noun a command line names (`org` in `switchyard --socket S org list`), if it is one of ours. */
function nounOf(argv: string[]): string | undefined {
  for (let i = 2; i < argv.length; i++) {
    const word = argv[i];
    if (globalValueOptions.has(word)) i++;
    else if (!word.startsWith('-')) return Object.hasOwn(commands, word) && word !== 'completion' ? word : undefined;
  }
  return undefined;
}

/** The register functions of the nouns `argv` needs: its noun's alone, or every one. */
export async function loadCommands(argv?: string[]): Promise<Register[]> {
  const noun = argv === undefined ? undefined : nounOf(argv);
  return Promise.all((noun === undefined ? Object.values(commands) : [commands[noun]]).map((load) => load()));
}

export function buildProgram(registers: Register[], options: { json?: boolean } = {}): Command {
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
    // --no-color is NO_COLOR for this process, so everything that honours NO_COLOR follows it; an
    // old flag name's value is the new name's, so commands read only the new one.
    .hook('preAction', (root, action) => {
      if (root.opts<{ color: boolean }>().color === false) process.env.NO_COLOR = '1';
      applyHiddenAliases(action);
    });
  if (options.json === true) {
    // Scripts get usage errors in the same JSON shape as every other failure.
    program.configureOutput({
      outputError: (text) => writeJsonError(new CliError('invalid_request', text.replace(/^error: /, '').trim())),
    });
  } else program.showHelpAfterError();
  for (const register of registers) register(program);
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

/**
 * A reader that goes away (`switchyard events tail | head -1`) ends the command quietly, exit 0, as
 * for any Unix filter: EPIPE on stdout (or stderr) is not an error to report.
 */
function exitQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
}

export async function runCli(argv: string[]): Promise<void> {
  if (argv[2] !== 'serve') exitQuietlyOnClosedPipe();
  await runProgram(buildProgram(await loadCommands(argv), { json: argv.includes('--json') }), argv);
}
