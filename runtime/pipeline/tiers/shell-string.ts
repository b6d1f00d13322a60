// `bash -c 'echo $HOME'` runs its script in a second bash with the same directory, environment
// and sandbox as the line itself (which the executor already runs with `bash -c`): a line that is
// only `bash -c SCRIPT`, the script one quoted literal, is judged as SCRIPT. Anything that changes
// what that bash reads first keeps the line as given: another option (-l, -i, --rcfile: profiles
// and rc files), words after the script ($0, $1…), a redirect, a wrapper or assignment, a pipe.
// sh is another shell on many systems (dash), parsed by its own rules: not taken.
import { parseShell } from '../../shell/parse.ts';
import type { ParsedShell } from '../../shell/types.ts';

/** The script of a line that is one plain `bash -c 'SCRIPT'`, parsed; the line otherwise. */
export function judgeShellString(shell: ParsedShell): ParsedShell {
  if (shell.errors || shell.hasSubstitution) return shell;
  const top = shell.commands.filter((command) => command.origin === 'top');
  const [only] = top;
  if (only === undefined || top.length !== 1 || only.binary !== 'bash') return shell;
  const { args } = only;
  const plain =
    only.wrappers.length === 0 &&
    only.redirects.length === 0 &&
    only.assignments.length === 0 &&
    only.scope.length === 0 &&
    !only.background &&
    only.pipeline.length <= 1;
  const [flag, script] = args;
  if (!plain || args.length !== 2 || flag?.text !== '-c' || !flag.literal) return shell;
  if (script === undefined || !script.literal || script.glob) return shell;
  const inner = parseShell(script.text);
  return inner.errors ? shell : inner;
}
