// The policy's use of the read-only catalogue: a shell call whose every command is a known
// read-only one, with every path argument inside scope and outside the guard, runs without
// a card. The catalogue itself (rules and examples) lives with the parser.
import type { Config } from '../config.ts';
import type { ParsedShell } from '../shell/parse.ts';
import { guardCall } from '../vaglio/guard.ts';
import { loadCatalogue, matchReadOnly, type ReadOnlyCatalogue } from './read-only.ts';
import { checkHints, type ScopeInput } from './check-hints.ts';

export type ReadOnlyMatcher = ReadOnlyCatalogue;

/** The catalogue the config asks for (built-in plus the user's rules), or null when disabled. */
export function readOnlyMatcherFor(config: Config): ReadOnlyMatcher | null {
  const settings = config.approvals.read_only_catalogue;
  return settings.enabled ? loadCatalogue(settings.extra) : null;
}

/** The name of the catalogue rule that makes this shell call read-only, or null. */
export function readOnlyRuleFor(
  shell: ParsedShell,
  catalogue: ReadOnlyMatcher,
  scope: Omit<ScopeInput, 'shell'>,
): string | null {
  const pathOk = (path: string): boolean => {
    if (guardCall({ executor: 'fs_read', args: { path }, home: scope.home }).blocked) return false;
    const readScope = {
      ...scope,
      args: { path },
      shell: null,
      executor: {
        ...scope.executor,
        capabilities: { access: 'read' as const, pathArgs: ['path'] },
      },
    };
    return checkHints(readScope).kind === 'pass';
  };
  return matchReadOnly(shell, catalogue, pathOk)?.rule ?? null;
}
