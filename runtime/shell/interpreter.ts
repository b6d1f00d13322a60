// Shell commands hidden in interpreter one-liners: `python3 -c "import os; os.system('rm -rf /')"`
// runs `rm -rf /` through a shell, so the parser re-parses such string literals as payloads.
import { isInterpreter } from '../../constitution/command-effects.ts';
import type { ShellWord } from './types.ts';

// The flags that take inline code: python -c, perl/ruby/node -e (-E), node --eval/-p, php -r.
const CODE_FLAGS: ReadonlySet<string> = new Set([
  '-c',
  '-e',
  '-E',
  '--eval',
  '-p',
  '--print',
  '-r',
]);
// A call that hands one string to a shell: os.system("..."), subprocess.run("...", shell=True),
// Perl/Ruby system("..."), Node execSync("..."), PHP shell_exec("...").
const SHELL_CALL =
  /\b(?:system|popen|getoutput|getstatusoutput|check_output|check_call|call|run|Popen|exec|execSync|spawnSync|shell_exec|passthru)\s*\(\s*(?:r|b)?(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
// Bounds: a one-liner with dozens of calls is judged on the first few.
const MAX_STRINGS = 8;

/** Shell text inside an interpreter's inline code (literal code only), in the order it appears. */
export function interpreterShellStrings(
  binary: string | null,
  args: readonly ShellWord[],
): string[] {
  if (binary === null || !isInterpreter(binary)) return [];
  const at = args.findIndex((a) => a.literal && CODE_FLAGS.has(a.text));
  const code = at >= 0 ? args[at + 1] : undefined;
  if (code === undefined || !code.literal) return [];
  const out: string[] = [];
  for (const match of code.text.matchAll(SHELL_CALL)) {
    if (out.length >= MAX_STRINGS) break;
    out.push((match[2] as string).replace(/\\(.)/g, '$1'));
  }
  return out;
}
