import { InvalidArgumentError, Option, type Command } from 'commander';
import { eventKinds } from '../domain/events/types.js';
import { roles } from '../domain/identity/roles.js';
import { parseInteger } from './format.js';

// Options several commands share. Choices come from the domain's lists, so the CLI offers (and its
// completion lists) exactly what the daemon accepts.

/** `--org <org>`: the organization, by id or slug; required unless `filter` describes it as optional. */
export function orgOption(filter?: string): Option {
  const option = new Option('--org <org>', filter ?? 'organization id or slug');
  return filter === undefined ? option.makeOptionMandatory() : option;
}

/** `flags` taking one of `choices`. */
export function choiceOption(flags: string, description: string, choices: readonly string[]): Option {
  return new Option(flags, description).choices(choices);
}

/** `--role <role>`, required: one of the domain's roles. */
export function roleOption(description = 'role'): Option {
  return choiceOption('--role <role>', description, roles).makeOptionMandatory();
}

/** `flags` taking one of `choices`, repeatable: its value is the list given, in order. */
export function repeatableChoiceOption(flags: string, description: string, choices: readonly string[]): Option {
  return (
    new Option(flags, description)
      // .choices() lists them for help and completion; the custom parser below replaces the one it installs.
      .choices(choices)
      .argParser((value: string, previous: string[] | undefined) => {
        if (!choices.includes(value)) throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
        return [...(previous ?? []), value];
      })
  );
}

/** `--limit <n>`: a list shows at most this many items (1 or more; default: all). */
export function limitOption(): Option {
  return new Option('--limit <n>', 'show at most this many').argParser((value: string) => {
    const n = parseInteger(value);
    if (n < 1) throw new InvalidArgumentError('expected a whole number, 1 or more');
    return n;
  });
}

/** `--yes`: a destructive command goes ahead without asking (required without a terminal, and with --json). */
export function yesOption(): Option {
  return new Option('-y, --yes', 'do not ask for confirmation (required without a terminal and with --json)');
}

/**
 * An update-style command given nothing to change is a usage error (exit 2, as the contract's CLI
 * section says of usage errors), reported before the daemon is asked: one rule for every such
 * command, called first in its action. Its changes are its own flags but those in `scope` (the
 * attribute names that say what to change, as `org`); the message lists the ones help shows.
 */
export function requireSomeChange(command: Command, scope: readonly string[] = []): void {
  const changes = command.options.filter((option) => !scope.includes(option.attributeName()));
  if (changes.some((option) => command.getOptionValueSource(option.attributeName()) === 'cli')) return;
  const flags = changes.filter((option) => !option.hidden).map((option) => option.long!);
  const last = flags.length > 1 ? `${flags.slice(0, -1).join(', ')} or ${flags.at(-1)}` : flags[0];
  command.error(`error: nothing to change: give at least one of ${last}`, {
    exitCode: 2,
    code: 'switchyard.nothingToChange',
  });
}

/** Event kinds from `--kind` values: each one kind or a comma-separated list, all known ones. */
function parseKindList(text: string, previous: string[] | undefined): string[] {
  const kinds = text
    .split(',')
    .map((kind) => kind.trim())
    .filter((kind) => kind !== '');
  const unknown = kinds.filter((kind) => !(eventKinds as readonly string[]).includes(kind));
  if (kinds.length === 0 || unknown.length > 0)
    throw new InvalidArgumentError(
      `${unknown.length > 0 ? `unknown ${unknown.join(', ')}; ` : ''}allowed: ${eventKinds.join(', ')}`,
    );
  return [...new Set([...(previous ?? []), ...kinds])];
}

/**
 * `--kind <kind>`: the one name every command gives an event kind filter. Where several are taken it
 * is repeatable and takes comma lists (`--kind a --kind b` or `--kind a,b`); `flags` names an old
 * spelling kept as a hidden alias.
 */
export function kindsOption(description: string, flags = '--kind <kind>'): Option {
  return new Option(flags, description).choices(eventKinds).argParser(parseKindList);
}

/** Each hidden alias and the attribute name of the flag it is the old spelling of. */
const aliasOf = new WeakMap<Option, string>();

/**
 * An old spelling of a flag, still accepted but no longer shown in help or completion (docs/cli.md,
 * "Renamed flags"); giving it beside the new name is a usage error. Its value becomes the new flag's
 * before the action runs (applyHiddenAliases), so a command reads only the new name.
 */
export function hiddenAlias(option: Option, current: string): Option {
  aliasOf.set(option, current);
  return option.hideHelp().conflicts(current);
}

/** Gives each hidden alias that `command` was given to the flag it is the old name of (a preAction hook of the root). */
export function applyHiddenAliases(command: Command): void {
  for (const option of command.options) {
    const current = aliasOf.get(option);
    const name = option.attributeName();
    if (current === undefined || command.getOptionValueSource(name) !== 'cli') continue;
    command.setOptionValueWithSource(current, command.getOptionValue(name), 'cli');
  }
}
