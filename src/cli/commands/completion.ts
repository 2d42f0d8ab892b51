import { Argument, type Command, type Option } from 'commander';

// Shell completion generated from the command tree itself, so it never lags behind the commands.

function longFlag(option: Option): string {
  return option.long ?? option.flags;
}

function takesValue(option: Option): boolean {
  return option.required || option.optional;
}

function walk(command: Command, path: string[], visit: (path: string[], command: Command) => void): void {
  visit(path, command);
  for (const sub of command.commands) walk(sub, [...path, sub.name()], visit);
}

const quote = (words: string[]) => words.join(' ');

/**
 * The shell loop both bash and zsh scripts start with: the words typed before the cursor, less
 * options and their values, joined into the command path (`org settings`) in `pathVar`.
 */
function commandPathLoop(words: string, first: number, current: string, pathVar: string, valueFlags: Set<string>): string {
  return `  for ((i = ${first}; i < ${current}; i++)); do
    word="\${${words}[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$word" in
      ${[...valueFlags].join('|')}) skip=1 ;;
      -*) ;;
      *) ${pathVar}="\${${pathVar}:+$${pathVar} }$word" ;;
    esac
  done
`;
}

/** A command's options as help shows them: hidden aliases (old spellings kept for a release) are not offered. */
const shownOptions = (command: Command) => command.options.filter((option) => !option.hidden);

/** Flags whose value is a file name: the shells offer files there. */
const fileFlags = ['--socket', '--config', '--data-dir', '--grpc-socket', '--out', '--tls-ca', '--file', '--input-file'];

export function bashCompletion(program: Command): string {
  // Global flags are offered everywhere; --version only where it means something, at the root.
  const globals = program.options.map(longFlag).filter((flag) => flag !== '--version');
  const valueFlags = new Set<string>();
  const choiceCases: string[] = [];
  const branches: string[] = [];
  walk(program, [], (path, command) => {
    const key = path.join(' ');
    const leaf = command.commands.length === 0 && path.length > 0;
    for (const option of shownOptions(command)) {
      if (!takesValue(option)) continue;
      const flag = longFlag(option);
      valueFlags.add(flag);
      // Per command: the same flag may offer different choices elsewhere (`--status` of invite and outbox).
      if (option.argChoices === undefined) continue;
      const pattern = leaf ? `"${key}|${flag}"|"${key} "*"|${flag}"` : `"${key}|${flag}"`;
      choiceCases.push(`    ${pattern}) COMPREPLY=( $(compgen -W "${quote(option.argChoices)}" -- "$cur") ); return ;;`);
    }
    const words = [
      ...command.commands.map((c) => c.name()),
      ...command.registeredArguments.flatMap((a) => a.argChoices ?? []),
      ...(path.length === 0 ? ['--version'] : shownOptions(command).map(longFlag)),
      '--help',
    ];
    const pattern = leaf ? `"${key}"|"${key} "*` : `"${key}"`;
    branches.push(`    ${pattern}) words="${quote(words)}" ;;`);
  });
  // Groups match their exact path; leaves also match with their positional arguments typed after them.
  return `# bash completion for switchyard. Load it with:  source <(switchyard completion bash)
_switchyard() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local path="" word words="" i skip=0
${commandPathLoop('COMP_WORDS', 1, 'COMP_CWORD', 'path', valueFlags)}  case "$path|$prev" in
${choiceCases.join('\n')}
  esac
  case "$prev" in
    ${fileFlags.join('|')}) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
    ${[...valueFlags].join('|')}) COMPREPLY=(); return ;;
  esac
  case "$path" in
${branches.join('\n')}
  esac
  COMPREPLY=( $(compgen -W "$words ${quote(globals)}" -- "$cur") )
}
complete -F _switchyard switchyard
`;
}

/** Every command of the tree with its path, in order: the root first (path ''). */
function commandsOf(program: Command): Array<{ key: string; leaf: boolean; command: Command }> {
  const out: Array<{ key: string; leaf: boolean; command: Command }> = [];
  walk(program, [], (path, command) =>
    out.push({ key: path.join(' '), leaf: command.commands.length === 0 && path.length > 0, command }),
  );
  return out;
}

const zshQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A native zsh completion: words and flags with their descriptions, choices per command. */
export function zshCompletion(program: Command): string {
  const globals = program.options.filter((o) => o.long !== '--version');
  const valueFlags = new Set<string>();
  const choiceCases: string[] = [];
  const branches: string[] = [];
  const item = (name: string, description: string) => zshQuote(`${name.replace(/:/g, '\\:')}:${description}`);
  for (const { key, leaf, command } of commandsOf(program)) {
    for (const option of shownOptions(command)) {
      if (!takesValue(option)) continue;
      valueFlags.add(longFlag(option));
      if (option.argChoices === undefined) continue;
      const pattern = leaf ? `"${key}|${longFlag(option)}"|"${key} "*"|${longFlag(option)}"` : `"${key}|${longFlag(option)}"`;
      choiceCases.push(`    ${pattern}) compadd -- ${option.argChoices.map(zshQuote).join(' ')}; return ;;`);
    }
    const items = [
      ...command.commands.map((c) => item(c.name(), c.description())),
      ...command.registeredArguments.flatMap((a) => (a.argChoices ?? []).map((choice) => item(choice, a.description))),
      ...(key === ''
        ? [item('--version', 'print the version')]
        : shownOptions(command).map((o) => item(longFlag(o), o.description))),
      item('--help', 'show help'),
    ];
    const pattern = leaf ? `"${key}"|"${key} "*` : `"${key}"`;
    branches.push(`    ${pattern}) items=(${items.join(' ')}) ;;`);
  }
  return `#compdef switchyard
# zsh completion for switchyard. Load it with:  source <(switchyard completion zsh)
# (or save it as _switchyard in a directory of $fpath)
_switchyard() {
  local -a items globals
  local cmdpath="" word prev="\${words[CURRENT-1]}" i skip=0
${commandPathLoop('words', 2, 'CURRENT', 'cmdpath', valueFlags)}  case "$cmdpath|$prev" in
${choiceCases.join('\n')}
  esac
  case "$prev" in
    ${fileFlags.join('|')}) _files; return ;;
    ${[...valueFlags].join('|')}) return ;;
  esac
  globals=(${globals.map((o) => item(longFlag(o), o.description)).join(' ')})
  case "$cmdpath" in
${branches.join('\n')}
  esac
  _describe -t commands switchyard items -- globals
}
if [[ "\${funcstack[1]}" == _switchyard ]]; then _switchyard "$@"; else compdef _switchyard switchyard; fi
`;
}

const fishQuote = (text: string) => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;

/** A fish completion: one `complete` line per word and flag, conditioned on the command path typed. */
export function fishCompletion(program: Command): string {
  const valueFlags = new Set<string>();
  const lines: string[] = [];
  const flagLine = (option: Option, condition: string) => {
    const names = [
      ...(option.short === undefined ? [] : [`-s ${option.short.replace(/^-/, '')}`]),
      `-l ${longFlag(option).replace(/^--/, '')}`,
    ];
    let value = '';
    if (takesValue(option)) {
      valueFlags.add(longFlag(option));
      if (option.argChoices !== undefined) value = ` -x -a ${fishQuote(option.argChoices.join(' '))}`;
      else value = fileFlags.includes(longFlag(option)) ? ' -r -F' : ' -x';
    }
    return `complete -c switchyard${condition} ${names.join(' ')}${value} -d ${fishQuote(option.description)}`;
  };
  for (const option of program.options) if (option.long !== '--version') lines.push(flagLine(option, ''));
  lines.push(`complete -c switchyard -n '__switchyard_at ""' -l version -d 'print the version'`);
  for (const { key, leaf, command } of commandsOf(program)) {
    const condition = ` -n ${fishQuote(`${leaf ? '__switchyard_in' : '__switchyard_at'} ${fishQuote(key)}`)}`;
    for (const sub of command.commands)
      lines.push(`complete -c switchyard${condition} -a ${fishQuote(sub.name())} -d ${fishQuote(sub.description())}`);
    for (const argument of command.registeredArguments)
      for (const choice of argument.argChoices ?? [])
        lines.push(`complete -c switchyard${condition} -a ${fishQuote(choice)} -d ${fishQuote(argument.description)}`);
    if (key !== '') for (const option of shownOptions(command)) lines.push(flagLine(option, condition));
  }
  return `# fish completion for switchyard. Load it with:  switchyard completion fish | source
# (or save it as ~/.config/fish/completions/switchyard.fish)

# The command path typed so far: the words that are not flags, nor the values of flags.
function __switchyard_path
    set -l words (commandline -opc)
    set -e words[1]
    set -l out
    set -l skip 0
    for word in $words
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $word
            case ${[...valueFlags].join(' ')}
                set skip 1
            case '-*'
            case '*'
                set -a out $word
        end
    end
    string join ' ' -- $out
end

# At exactly this command (a noun offers its verbs).
function __switchyard_at
    set -l typed (__switchyard_path)
    test "$typed" = "$argv[1]"
end

# At this command, or past it with its arguments typed (a verb keeps offering its flags).
function __switchyard_in
    set -l typed (__switchyard_path)
    test "$typed" = "$argv[1]"; or string match -q -- "$argv[1] *" "$typed"
end

complete -c switchyard -f
${lines.join('\n')}
`;
}

const shells = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion } as const;

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(Object.keys(shells)))
    .action((shell: keyof typeof shells) => {
      process.stdout.write(shells[shell](program));
    });
}
