import { InvalidArgumentError, Option } from 'commander';
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
