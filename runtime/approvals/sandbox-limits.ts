// What the sandbox will not let an approved command do, said on its card before the person
// presses Allow: a card whose run is doomed says so. A program that is not installed, and two
// classes read off the parse and the
// programs it names: a set-user/group-ID program (crontab, passwd, at: the sandbox runs every
// program with no_new_privs, so it never gains those privileges), and an install into the
// package manager's own prefix outside roots.write (pip under /usr or another user's pyenv,
// npm -g under /usr/lib), which the sandbox cannot write.
import { parseShell } from '../shell/parse.ts';
import type { ShellCommand } from '../shell/types.ts';
import { isUnder } from '../vaglio/normalize-path.ts';
import { dirname } from 'node:path';
import type { LookUpProgram } from '../../executors/ops/program-lookup.ts';

// bash's builtins: found without the PATH.
const BUILTINS: ReadonlySet<string> = new Set(
  (
    '. : [ alias bg bind break builtin caller cd command compgen complete compopt continue ' +
    'declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history ' +
    'jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set ' +
    'shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait'
  ).split(' '),
);

const PIP = /^pip(?:3(?:\.\d+)?)?$/;
const PYTHON = /^python(?:3(?:\.\d+)?)?$/;
const NODE_PACKAGERS: ReadonlySet<string> = new Set(['npm', 'pnpm']);

function words(command: ShellCommand): readonly string[] {
  return command.args.map((word) => word.text);
}

/** pip's words after `install`, for pip itself or `python -m pip`; null when it does not install. */
function pipInstall(command: ShellCommand): readonly string[] | null {
  const args = words(command);
  const binary = command.binary ?? '';
  const rest = PIP.test(binary)
    ? args
    : PYTHON.test(binary) && args[0] === '-m' && args[1] === 'pip'
      ? args.slice(2)
      : null;
  return rest !== null && rest.includes('install') ? rest : null;
}

/** The prefix a command installs into (its program's own tree), or null when it installs elsewhere or not at all. */
function installPrefix(command: ShellCommand, lookUp: LookUpProgram): string | null {
  const binary = command.binary ?? '';
  const pip = pipInstall(command);
  if (pip !== null) {
    // --user, --target and --prefix pick another place; a requirements check installs nothing.
    if (pip.some((word) => /^(?:--user|--target|-t|--prefix|--root|--dry-run)(?:=|$)/.test(word)))
      return null;
    const program = lookUp(binary);
    return program === null ? null : dirname(dirname(program.real));
  }
  const args = words(command);
  if (NODE_PACKAGERS.has(binary) && args.some((word) => word === '-g' || word === '--global')) {
    if (!args.some((word) => ['install', 'i', 'add'].includes(word))) return null;
    if (args.some((word) => word.startsWith('--prefix'))) return null;
    const node = lookUp('node');
    return node === null ? null : dirname(dirname(node.real));
  }
  return null;
}

/** "Will fail in the sandbox: …" for a command the sandbox dooms; null when nothing is known. */
export function sandboxLimitLine(
  command: string,
  lookUp: LookUpProgram,
  writeRoots: readonly string[],
): string | null {
  let parsed;
  try {
    parsed = parseShell(command);
  } catch {
    return null;
  }
  for (const found of parsed.commands) {
    if (found.binary === null) continue;
    const name = found.name?.text ?? found.binary;
    const program = lookUp(name);
    if (
      program === null &&
      !name.includes('/') &&
      !BUILTINS.has(name) &&
      !parsed.functions.has(name)
    )
      return `Will fail: ${found.binary} is not installed here (not on the PATH commands get).`;
    if (program?.setId != null)
      return `Will fail in the sandbox: ${found.binary} is set-${program.setId === 'uid' ? 'user' : 'group'}-ID, and the sandbox never lets a program gain privileges. Run it in your own terminal.`;
    const prefix = installPrefix(found, lookUp);
    if (prefix !== null && !writeRoots.some((root) => isUnder(prefix, root)))
      return `Will fail in the sandbox: ${found.binary} installs under ${prefix}, which the sandbox cannot write (only roots.write). Install into your home instead (pip install --user, a virtualenv, npm install without -g).`;
  }
  return null;
}
