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

export function bashCompletion(program: Command): string {
  // Global flags are offered everywhere; --version only where it means something, at the root.
  const globals = program.options.map(longFlag).filter((flag) => flag !== '--version');
  const valueFlags = new Set<string>();
  const choiceCases: string[] = [];
  const branches: string[] = [];
  walk(program, [], (path, command) => {
    const key = path.join(' ');
    const leaf = command.commands.length === 0 && path.length > 0;
    for (const option of command.options) {
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
      ...(path.length === 0 ? ['--version'] : command.options.map(longFlag)),
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
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$word" in
      ${[...valueFlags].join('|')}) skip=1 ;;
      -*) ;;
      *) path="\${path:+$path }$word" ;;
    esac
  done
  case "$path|$prev" in
${choiceCases.join('\n')}
  esac
  case "$prev" in
    --socket|--config|--data-dir|--grpc-socket) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
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

function zshCompletion(program: Command): string {
  return `#compdef switchyard
# zsh completion for switchyard (zsh's bash-completion bridge). Load it with:  source <(switchyard completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(program)}`;
}

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script')
    .addArgument(new Argument('<shell>', 'bash or zsh').choices(['bash', 'zsh']))
    .action((shell: 'bash' | 'zsh') => {
      process.stdout.write(shell === 'bash' ? bashCompletion(program) : zshCompletion(program));
    });
}
