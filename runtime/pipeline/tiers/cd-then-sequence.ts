// `cd DIR && A; B` is how models list steps in one directory. When the cd succeeds, A and B run
// in DIR; when it fails (DIR gone, not searchable, or not in the sandbox's view), A is skipped
// and B runs where the shell was. So the line is judged twice: `A; B` in DIR, and `B` alone in
// the directory given; it runs without a card only when both would (index.ts). `cd DIR; A; B`
// the same, with `A; B` where the shell was. The guard has
// already judged the whole line; the executor runs it unchanged.
import { parseShell, topStatements } from '../../shell/parse.ts';
import type { ParsedShell } from '../../shell/types.ts';
import type { PathOracle } from '../paths.ts';
import { foldLeadingCd, type JudgedLine } from './leading-cd.ts';

/** The line judged in DIR, and what runs where the shell was should the cd fail. */
export interface CdSequence extends JudgedLine {
  readonly fallback: ParsedShell;
}

/**
 * `cd DIR && A; B…` as `A; B…` in DIR with `B…` as the fallback, when the first statement is an
 * `&&` chain whose leading cds fold (leading-cd.ts), or `cd DIR; A; B…` with `A; B…` as the
 * fallback; null otherwise. Here-documents are left as
 * given (their bodies are not statements' text).
 */
export function foldCdBeforeSequence(
  shell: ParsedShell,
  cwd: string,
  paths: PathOracle,
  isDirectory: (path: string) => boolean,
): CdSequence | null {
  if (shell.errors || shell.andChain !== null || !/^\s*(?:cd|pushd)\s/.test(shell.source))
    return null;
  if (shell.commands.some((command) => command.stdinText !== null)) return null;
  const statements = topStatements(shell.source);
  if (statements === null) return null;
  const [first, ...rest] = statements;
  if (first === undefined) return null;
  // A bare `cd DIR; A; B` moves A as `cd DIR && A` would, and A runs too should the cd fail.
  const bare = parseShell(first).andChain === null;
  const head = bare ? `${first} && ${rest[0] ?? ''}` : first;
  const folded = foldLeadingCd(parseShell(head), cwd, paths, isDirectory);
  if (folded.cwd === cwd && folded.shell.source === head) return null;
  const inDir = parseShell([folded.shell.source, ...rest.slice(bare ? 1 : 0)].join('\n'));
  const fallback = parseShell(rest.join('\n'));
  if (inDir.errors || fallback.errors) return null;
  return { shell: inDir, cwd: folded.cwd, fallback };
}
