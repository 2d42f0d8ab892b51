import type { Command } from 'commander';
import type { DaemonServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/DaemonService.js';
import { execute, type Cell } from '../output.js';

const sourceTones: Record<string, Cell['tone']> = { flag: 'accent', env: 'good', file: 'warn', default: 'muted' };

/**
 * `switchyard config show`: the running daemon's configuration. The `config` noun is shared (its
 * other verbs edit the CLI's own config file), so this finds it or creates it.
 */
export function registerConfigShow(program: Command): void {
  const config =
    program.commands.find((c) => c.name() === 'config') ??
    program.command('config').description("configuration: the CLI's own, and the daemon's");

  config
    .command('show')
    .description(
      "the daemon's effective configuration: each setting, its value and its source (flag, env, file, default); secrets masked",
    )
    .action((_opts: unknown, command: Command) =>
      execute(command, {
        label: 'asking the daemon',
        run: (client) => client.service<DaemonServiceDefinition>('DaemonService').GetConfig({}),
        json: ({ settings }) => settings,
        view: ({ settings }) => [
          {
            kind: 'table',
            columns: ['SETTING', 'VALUE', 'SOURCE'],
            rows: settings.map((s) => [
              s.name,
              s.value === null ? { text: '-', tone: 'muted' } : { text: s.value, tone: s.secret ? 'warn' : undefined },
              { text: s.flag !== null && s.source === 'flag' ? `flag ${s.flag}` : s.source, tone: sourceTones[s.source] },
            ]),
            empty: 'no settings',
          },
        ],
      }),
    );
}
