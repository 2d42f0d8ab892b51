import { Argument, type Command } from 'commander';
import path from 'node:path';
import { cliConfigPath, cliSettings, readCliConfig, writeCliConfig, type CliSetting } from '../cli-config.js';
import { CliError } from '../client.js';
import { executeLocal } from '../output.js';

// `switchyard config set|get|unset`: the CLI's own settings file (cli-config.ts), no daemon needed.

const settingArgument = () => new Argument('<setting>', 'the setting').choices(cliSettings);

/** `config` and its verbs; a noun other verbs can join. */
export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description(`configuration; set, get, unset: the CLI's own settings (${cliConfigPath()})`);

  config
    .command('set')
    .description('remember a setting: `socket` is the admin socket to use when --socket and the environment name none')
    .addArgument(settingArgument())
    .argument('<value>', 'the value (a socket path is stored absolute)')
    .action((setting: CliSetting, value: string, _opts: unknown, command: Command) =>
      executeLocal(command, {
        label: `setting ${setting}`,
        run: () => {
          const file = cliConfigPath();
          const stored = setting === 'socket' ? path.resolve(value) : value;
          writeCliConfig(file, { ...readCliConfig(file), [setting]: stored });
          return Promise.resolve({ setting, value: stored, file });
        },
        view: (r) => [{ kind: 'message', text: `${r.setting} = ${r.value} (in ${r.file})`, tone: 'good' }],
      }),
    );

  config
    .command('get')
    .description('print a setting (exit 1 when it is not set)')
    .addArgument(settingArgument())
    .action((setting: CliSetting, _opts: unknown, command: Command) =>
      executeLocal(command, {
        label: `reading ${setting}`,
        run: () => {
          const file = cliConfigPath();
          const value = readCliConfig(file)[setting];
          if (value === undefined) return Promise.reject(new CliError('not_found', `${setting} is not set (in ${file})`));
          return Promise.resolve({ setting, value, file });
        },
        view: (r) => [{ kind: 'message', text: r.value }],
      }),
    );

  config
    .command('unset')
    .description('forget a setting')
    .addArgument(settingArgument())
    .action((setting: CliSetting, _opts: unknown, command: Command) =>
      executeLocal(command, {
        label: `unsetting ${setting}`,
        run: () => {
          const file = cliConfigPath();
          const { [setting]: removed, ...rest } = readCliConfig(file);
          if (removed !== undefined) writeCliConfig(file, rest);
          return Promise.resolve({ setting, value: null, file });
        },
        view: (r) => [{ kind: 'message', text: `${r.setting} is not set (in ${r.file})`, tone: 'good' }],
      }),
    );
}
