// The workspace catalogue: commands whose only lasting effect is one that loses nothing.
// They create files or directories that do not exist yet, append, touch, move a file to a
// new name, record a local version-control change, or work in the sandbox's private /tmp,
// which vanishes when the call ends. Each rule reads the command's own words (the options
// that make a tool overwrite, delete or run something are not in its list) and names the
// paths it reads and writes; the policy checks every one before a call runs without a card.
// The rules live by family beside this file; this is their one index.
import { FILE_WORKSPACE } from './files.ts';
import { GIT_WORKSPACE } from './git.ts';
import { INLINE_CODE_WORKSPACE } from './inline-code.ts';
import { RUNNER_WORKSPACE } from './runners.ts';
import { SQLITE_WORKSPACE } from './sqlite-query.ts';
import type { WorkspaceRuleSpec } from './spec.ts';

export type { WorkspaceRuleSpec } from './spec.ts';

/** The built-in workspace rules. */
export const BUILT_IN_WORKSPACE: readonly WorkspaceRuleSpec[] = [
  ...FILE_WORKSPACE,
  ...GIT_WORKSPACE,
  ...RUNNER_WORKSPACE,
  ...INLINE_CODE_WORKSPACE,
  ...SQLITE_WORKSPACE,
];

/** The rules that run code (the project's, or inline code read-only): off with project_code. */
export const CODE_WORKSPACE: readonly WorkspaceRuleSpec[] = [
  ...RUNNER_WORKSPACE,
  ...INLINE_CODE_WORKSPACE,
  ...SQLITE_WORKSPACE,
];
