// The uncarded tiers, in the order the README's "When Custode asks" table lists them (a test
// holds the two together). A shell call runs without a card when a tier answers for it; the
// policy turns that answer into a grant (grant.ts) that the sandbox then enforces.
import type { AnyExecutor } from '../../../executors/define.ts';
import type { ParsedShell } from '../../shell/types.ts';
import type { CallContext } from '../../vaglio/judge.ts';
import type { TierName } from '../grant.ts';
import { readOnlyRuleFor } from '../read-only-policy.ts';
import type { StageDeps } from '../run-stages.ts';
import { climbsThroughName, shellWorkingDirectory } from '../scope-paths.ts';
import { foldDirectoryOption } from './directory-option.ts';
import { fetchLine } from './fetch.ts';
import { foldLeadingCd } from './leading-cd.ts';
import { judgeNamesAsPatterns } from './name-substitution.ts';
import {
  unreviewedCodeReason,
  workspaceDecisionFor,
  type WorkspaceDecision,
  type WorkspaceScope,
} from '../workspace/policy.ts';

/** One row of the table: the tier and how its decisions' reasons begin. */
export interface TierRow {
  readonly tier: TierName;
  /** The reason's form, as the README's table writes it. */
  readonly reason: string;
  /** What the sandbox lets it write, as the README's table says it. */
  readonly writes: string;
}

export const TIERS: readonly TierRow[] = [
  { tier: 'read-only', reason: 'read-only: <rule>', writes: 'nothing but its private `/tmp`' },
  {
    tier: 'fetch',
    reason: 'fetch: curl',
    writes: 'nothing but its private `/tmp`; the network only through the checking proxy',
  },
  { tier: 'workspace', reason: 'workspace: <rule>', writes: 'the directories it names' },
  {
    tier: 'project-code',
    reason: 'workspace: <runner>',
    writes: 'its git work tree, with `.git` read-only; nothing outside a work tree',
  },
];

/** What a tier needs: the pipeline's deps and the call. */
export interface TierContext extends StageDeps {
  readonly executor: AnyExecutor;
  readonly args: Readonly<Record<string, unknown>>;
  readonly context: CallContext;
}

/** The tiers' answer for a shell call: the read-only or fetch rule, or the workspace's decision. */
export interface TierAnswer {
  readonly readOnlyRule: string | null;
  /** A plain GET through the checking proxy (fetch.ts). */
  readonly fetchRule: string | null;
  readonly workspace: WorkspaceDecision | null;
  /** The rule names behind an uncarded call, for the audit line. */
  readonly signals: readonly string[];
}

/**
 * Ask the tiers in order. None answers when the model asked for a card (to write every root),
 * or when the cwd has `..` after a name (/dev/fd/../root is /: not judged from its text).
 */
export function uncardedAnswer(parsed: ParsedShell, ctx: TierContext): TierAnswer | null {
  const { args, paths } = ctx;
  if (args.request_approval === true) return null;
  if (typeof args.cwd === 'string' && climbsThroughName(args.cwd)) return null;
  const given = shellWorkingDirectory(args, paths.home, paths.realHome, ctx.realPath);
  const folded = foldLeadingCd(parsed, given, paths, ctx.isDirectory);
  const { shell: judged, cwd } = foldDirectoryOption(folded, paths, ctx.isDirectory);
  const shell = judgeNamesAsPatterns(judged);
  const scope = tierScope(ctx, cwd);
  const readOnlyRule = ctx.readOnly === null ? null : readOnlyRuleFor(shell, ctx.readOnly, scope);
  if (readOnlyRule !== null)
    return {
      readOnlyRule,
      fetchRule: null,
      workspace: null,
      signals: [`read-only: ${readOnlyRule}`],
    };
  if (ctx.readOnly !== null && fetchesOnly(shell, ctx.readOnly, scope))
    return { readOnlyRule: null, fetchRule: 'curl', workspace: null, signals: ['fetch: curl'] };
  if (ctx.workspace === null) return null;
  return workspaceAnswer(workspaceDecisionFor(shell, ctx.readOnly, ctx.workspace, scope));
}

/**
 * Why an always-allow rule for this shell call must not answer now (it would run code while
 * files written without a card are unreviewed), judged in the directory the line works in; or null.
 */
export function ruleReviewReason(parsed: ParsedShell, ctx: TierContext): string | null {
  const { args, paths } = ctx;
  const given = shellWorkingDirectory(args, paths.home, paths.realHome, ctx.realPath);
  const folded = foldLeadingCd(parsed, given, paths, ctx.isDirectory);
  const { shell, cwd } = foldDirectoryOption(folded, paths, ctx.isDirectory);
  return unreviewedCodeReason(shell, ctx.readOnly, tierScope(ctx, cwd));
}

/** True when the line is one plain curl GET whose output only read-only commands read. */
function fetchesOnly(
  shell: ParsedShell,
  readOnly: NonNullable<TierContext['readOnly']>,
  scope: WorkspaceScope,
): boolean {
  const fetched = fetchLine(shell);
  if (fetched === null) return false;
  return (
    fetched.rest.commands.length === 0 || readOnlyRuleFor(fetched.rest, readOnly, scope) !== null
  );
}

/** A workspace decision as the tiers' answer. */
export function workspaceAnswer(workspace: WorkspaceDecision | null): TierAnswer {
  const signals = workspace?.kind === 'allow' ? [`workspace: ${workspace.rule}`] : [];
  return { readOnlyRule: null, fetchRule: null, workspace, signals };
}

/** What the tiers' path checks need, for a call that works in `cwd`. */
export function tierScope(ctx: TierContext, cwd: string): WorkspaceScope {
  const { paths } = ctx;
  return {
    executor: ctx.executor,
    args: ctx.args,
    context: ctx.context,
    config: ctx.config,
    paths,
    home: paths.home,
    realHome: paths.realHome,
    realPath: ctx.realPath,
    roots: paths.roots,
    cwd,
    isDirectory: ctx.isDirectory,
    entryExists: ctx.entryExists,
    namesIn: ctx.namesIn,
    isAppendableData: ctx.isAppendableData,
    protectedDirs: ctx.protectedDirs,
    unreviewed: ctx.unreviewed,
  };
}
