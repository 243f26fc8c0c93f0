import type { Command } from 'commander';

/**
 * Shell completion scripts for `scrub completion bash|zsh|fish`, written from the program's own
 * command tree when asked, so a new command or option completes without anyone editing a script.
 * The scripts are static: pressing Tab never starts Node. Where no command or option fits (a file
 * argument), the shell completes file names.
 */

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface OptionNode {
  long?: string;
  short?: string;
  description: string;
  takesValue: boolean;
}

interface CommandNode {
  /** Words from the program down: `['scrub', 'admin', 'users']`. */
  path: string[];
  description: string;
  options: OptionNode[];
  subcommands: CommandNode[];
}

/** `name` is the command's own name or one of its aliases (`check` for `verify`): both complete alike. */
function commandTree(command: Command, parentPath: string[] = [], name = command.name()): CommandNode {
  const path = [...parentPath, name];
  const options: OptionNode[] = command.options
    .filter((option) => !option.hidden)
    .map((option) => ({
      ...(option.long ? { long: option.long } : {}),
      ...(option.short ? { short: option.short } : {}),
      description: option.description,
      takesValue: option.required || option.optional,
    }));
  options.push({ long: '--help', short: '-h', description: 'show help', takesValue: false });
  return {
    path,
    description: command.description(),
    options,
    subcommands: command.commands.flatMap((subcommand) =>
      [subcommand.name(), ...subcommand.aliases()].map((each) => commandTree(subcommand, path, each)),
    ),
  };
}

function allNodes(node: CommandNode): CommandNode[] {
  return [node, ...node.subcommands.flatMap(allNodes)];
}

const optionWords = (node: CommandNode) =>
  node.options.flatMap((option) => [option.long, option.short].filter((word): word is string => !!word));

function bashScript(root: CommandNode): string {
  const nodes = allNodes(root);
  const name = root.path[0] as string;
  const fn = `_${name.replace(/\W/g, '_')}_completion`;
  const pathCases = nodes
    .slice(1)
    .map((node) => `      "${node.path.join(' ')}") path="$candidate" ;;`)
    .join('\n');
  const wordCases = nodes
    .map((node) => {
      const commands = node.subcommands.map((subcommand) => subcommand.path.at(-1)).join(' ');
      return `    "${node.path.join(' ')}") commands="${commands}"; options="${optionWords(node).join(' ')}" ;;`;
    })
    .join('\n');
  return `# ${name} completion for bash. Load it with:  source <(${name} completion bash)
# or keep it:  ${name} completion bash > ~/.local/share/bash-completion/completions/${name}
${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="${name}" candidate i
  for ((i = 1; i < COMP_CWORD; i++)); do
    candidate="$path \${COMP_WORDS[i]}"
    case "$candidate" in
${pathCases}
    esac
  done
  local commands="" options=""
  case "$path" in
${wordCases}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
  elif [[ -n "$commands" ]]; then
    COMPREPLY=($(compgen -W "$commands" -- "$cur"))
  fi
}
complete -o default -o bashdefault -F ${fn} ${name}
`;
}

function zshScript(root: CommandNode): string {
  const name = root.path[0] as string;
  return `# ${name} completion for zsh (through zsh's bash completion layer). Load it with:
#   source <(${name} completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashScript(root)}`;
}

const fishQuote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fishScript(root: CommandNode): string {
  const name = root.path[0] as string;
  const lines = [
    `# ${name} completion for fish. Load it with:  ${name} completion fish | source`,
    `# or keep it:  ${name} completion fish > ~/.config/fish/completions/${name}.fish`,
    `complete -c ${name} -e`,
  ];
  for (const node of allNodes(root)) {
    const words = node.path.slice(1);
    const below = node.subcommands.map((subcommand) => subcommand.path.at(-1) as string);
    // The node is where the command line is when all its words were typed and none of its children.
    const here =
      words.length === 0
        ? '__fish_use_subcommand'
        : [
            ...words.map((word) => `__fish_seen_subcommand_from ${word}`),
            ...(below.length > 0 ? [`not __fish_seen_subcommand_from ${below.join(' ')}`] : []),
          ].join('; and ');
    for (const subcommand of node.subcommands) {
      lines.push(
        `complete -c ${name} -f -n ${fishQuote(here)} -a ${subcommand.path.at(-1)} -d ${fishQuote(subcommand.description)}`,
      );
    }
    const optionScope =
      words.length === 0
        ? ''
        : ` -n ${fishQuote(words.map((word) => `__fish_seen_subcommand_from ${word}`).join('; and '))}`;
    for (const option of node.options) {
      const flags = [
        option.long ? `-l ${option.long.slice(2)}` : '',
        option.short ? `-s ${option.short.slice(1)}` : '',
        option.takesValue ? '-r' : '',
      ]
        .filter(Boolean)
        .join(' ');
      lines.push(`complete -c ${name}${optionScope} ${flags} -d ${fishQuote(option.description)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The completion script for one shell, from the program's command tree. */
export function completionScript(program: Command, shell: Shell): string {
  const root = commandTree(program);
  if (shell === 'bash') return bashScript(root);
  if (shell === 'zsh') return zshScript(root);
  return fishScript(root);
}
