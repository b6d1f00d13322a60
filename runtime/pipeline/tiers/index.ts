// The uncarded tiers, in the order the README's "When Custode asks" table lists them (a test
// holds the two together). A shell call runs without a card when a tier answers for it; the
// policy turns that answer into a grant (grant.ts) that the sandbox then enforces.
import type { AnyExecutor } from '../../../executors/define.ts';
import { readsLogs, unreadTextStaysWhole } from '../../../constitution/unread-text.ts';
import type { ParsedShell } from '../../shell/types.ts';
import type { CallContext } from '../../vaglio/judge.ts';
import type { TierName } from '../grant.ts';
import { readOnlyRuleFor } from '../read-only-policy.ts';
import type { StageDeps } from '../run-stages.ts';
import { climbsThroughName, shellWorkingDirectory } from '../scope-paths.ts';
import { archiveDecision } from './archive-extraction.ts';
import { foldCdBeforeSequence } from './cd-then-sequence.ts';
import { judgeShellString } from './shell-string.ts';
import { foldDirectoryOption } from './directory-option.ts';
import { forEachMatchAnswer } from './for-each-match.ts';
import { inPlaceEditDecision } from './in-place-edit.ts';
import { restorableAppendDecision } from './restorable-append.ts';
import { rewriteThroughTempDecision } from './rewrite-through-temp.ts';
import { fetchLine } from './fetch.ts';
import { foldLeadingCd } from './leading-cd.ts';
import { writableFor } from '../workspace/targets.ts';
import { judgeKnownVariables, loopMaySet } from './known-variables.ts';
import { judgeNamesAsPatterns } from './name-substitution.ts';
import { anchorRelativeGlobs } from './relative-globs.ts';
import { dropTrailingTrue } from './trailing-true.ts';
import { mayUnstage } from './unstage-check.ts';
import { judgeXargsAsExec } from './xargs-as-exec.ts';
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
    reason: 'fetch: <rule>',
    writes:
      'nothing but its private `/tmp` and, for a download, the directory of the new file; the network only through the checking proxy',
  },
  { tier: 'workspace', reason: 'workspace: <rule>', writes: 'the directories it names' },
  {
    tier: 'project-code',
    reason: 'workspace: <runner>',
    writes: 'its git work tree, with `.git` read-only; nothing outside a work tree',
  },
  {
    tier: 'read-only-code',
    reason: 'read-only code: <rule>',
    writes:
      "nothing but its private `/tmp` and the one new file its output is saved to; no network; protected places and host sockets hidden; on an empty root: the system's parts (`/usr`, `/bin`, `/lib*`, `/etc`, `/opt`, `/nix`, `/sys`), its work tree with every credential file in it hidden (those found at the decision, and any named like one at the run) and every compressed file or archive in it (`.gz`, `.tgz`, `.zip`, `.xz` …: no check reads their text), and, when a credential file is hidden or its history holds one (a `.env` committed and removed since), its `.git`; the files it names; the tool directories on `PATH`; all read-only. Not the rest of the home (none run from the home itself), nor `/srv`, `/mnt`, `/media`, `/var`, `/home` or other places people keep data",
  },
];

/** The fetch tier's answer: its rule, and what a download (`curl -o NEWFILE`, `wget URL`) may write. */
export interface FetchAnswer {
  readonly rule: string;
  /** The directories the new file is made in ([] for a GET to the output). */
  readonly writable: readonly string[];
  /** The new file: unreviewed once it runs. */
  readonly records: readonly string[];
}

/** What a tier needs: the pipeline's deps and the call. */
export interface TierContext extends StageDeps {
  readonly executor: AnyExecutor;
  readonly args: Readonly<Record<string, unknown>>;
  readonly context: CallContext;
}

/** The tiers' answer for a shell call: the read-only or fetch rule, or the workspace's decision. */
export interface TierAnswer {
  readonly readOnlyRule: string | null;
  /** A plain GET through the checking proxy (fetch.ts), and the new file it saves to. */
  readonly fetch: FetchAnswer | null;
  readonly workspace: WorkspaceDecision | null;
  /** The rule names behind an uncarded call, for the audit line. */
  readonly signals: readonly string[];
  /** Why a tier that matched the line still asks (its card says so); none when it answered. */
  readonly askReason?: string;
}

/** The line as the tiers judge it, and the directory it works in; null when none may answer. */
interface JudgedLine {
  readonly shell: ParsedShell;
  readonly cwd: string;
}

/**
 * The line as the tiers judge it: a final `|| true` dropped, a leading `cd` and `-C DIR` folded into its cwd, known
 * variables, printed names and relative globs read as what they are, xargs as its -exec. Null
 * when the model asked for a card (to write every root), when the cwd has `..` after a name
 * (/dev/fd/../root is /: not judged from its text), or when a loop sets a variable that changes
 * what commands do (known-variables.ts loopMaySet).
 */
function judgedLine(parsed: ParsedShell, ctx: TierContext): JudgedLine | null {
  const { args, paths } = ctx;
  if (args.request_approval === true) return null;
  if (typeof args.cwd === 'string' && climbsThroughName(args.cwd)) return null;
  if (![...parsed.loopVariables].every((name) => loopMaySet(name, ctx.env))) return null;
  const { shell: judged, cwd } = foldDirectoryOption(foldCd(parsed, ctx), paths, ctx.isDirectory);
  const exists = (word: string): boolean => ctx.entryExists(paths.absolute(word, cwd));
  const named = judgeNamesAsPatterns(judgeKnownVariables(judged, ctx.env), exists);
  const listing = { namesIn: ctx.namesIn, isDirectory: ctx.isDirectory };
  const anchored = anchorRelativeGlobs(named, cwd, ctx.namesIn);
  return { shell: judgeXargsAsExec(anchored, cwd, paths, listing), cwd };
}

/** The line with its leading `cd`s folded into the directory it works in (leading-cd.ts, cd-then-sequence.ts). */
function foldCd(parsed: ParsedShell, ctx: TierContext): FoldedLine {
  const { paths } = ctx;
  const given = shellWorkingDirectory(ctx.args, paths.home, paths.realHome, ctx.realPath);
  const line = dropTrailingTrue(parsed);
  return (
    foldCdBeforeSequence(line, given, paths, ctx.isDirectory) ??
    foldLeadingCd(line, given, paths, ctx.isDirectory)
  );
}

/** A folded line, and what runs where the shell was when its `cd` fails (`cd D && A; B`: B). */
interface FoldedLine extends JudgedLine {
  readonly fallback?: ParsedShell;
}

/** True when a tier answered: a rule, a fetch or a workspace decision. */
function answered(answer: TierAnswer | null): answer is TierAnswer {
  return (
    answer !== null &&
    (answer.readOnlyRule !== null || answer.fetch !== null || answer.workspace !== null)
  );
}

/** Ask the tiers in order, those that decide from the line alone. */
export function uncardedAnswer(parsed: ParsedShell, ctx: TierContext): TierAnswer | null {
  const line = judgedLine(parsed, ctx);
  if (line === null) return null;
  const { shell, cwd } = line;
  const scope = tierScope(ctx, cwd);
  const readOnlyRule = ctx.readOnly === null ? null : readOnlyRuleFor(shell, ctx.readOnly, scope);
  if (readOnlyRule !== null)
    return {
      readOnlyRule,
      fetch: null,
      workspace: null,
      signals: [`read-only: ${readOnlyRule}`],
    };
  const fetch = ctx.readOnly === null ? null : fetchAnswer(shell, ctx.readOnly, scope);
  if (fetch !== null)
    return { readOnlyRule: null, fetch, workspace: null, signals: [`fetch: ${fetch.rule}`] };
  if (ctx.workspace === null) return null;
  return workspaceAnswer(workspaceDecisionFor(shell, ctx.readOnly, ctx.workspace, scope));
}

/**
 * Ask every tier: those that decide from the line, then the workspace rules that read files to
 * decide (an archive's member list, whether git can give a file back to an edit or an append).
 */
export async function shellTierAnswer(
  given: ParsedShell,
  ctx: TierContext,
): Promise<TierAnswer | null> {
  const parsed = judgeShellString(given);
  // The logs are text no decision read: only filters that keep each line whole may see them.
  if (!unreadTextStaysWhole(parsed, readsLogs)) return null;
  const answer = await anyTierAnswer(parsed, ctx);
  // `cd D && A; B` runs B where the shell was when the cd fails: B must run there without a card too.
  const { fallback } = foldCd(parsed, ctx);
  if (fallback !== undefined && answered(answer) && !answered(await shellTierAnswer(fallback, ctx)))
    return null;
  if (answer?.workspace == null) return answer;
  const cwd = judgedLine(parsed, ctx)?.cwd ?? null;
  const staged = stagingReason(answer.workspace, cwd, ctx);
  if (staged !== null) return { ...workspaceAnswer(null), askReason: staged };
  if (!mayUnstage(parsed)) return answer;
  // Unstaging would drop a staged version nothing else holds (unstage-check.ts).
  return cwd === null || (await ctx.stagedOnly(cwd)) ? null : answer;
}

/**
 * Why git staging or committing work tree files here needs a card: one holds a credential (an
 * unignored `.env` under `git add -A`, a token pasted into a tracked file under `git commit -a`),
 * which would go into the history every clone and push carries; null when none does.
 */
function stagingReason(
  workspace: WorkspaceDecision,
  cwd: string | null,
  ctx: TierContext,
): string | null {
  if (workspace.stages === undefined) return null;
  const credential = cwd === null ? null : ctx.paths.stagedCredential(cwd, workspace.stages);
  if (cwd !== null && credential === null) return null;
  const held = credential === null ? 'a file it cannot read first' : credential.name;
  return `workspace: git would stage or commit ${held}, and the history keeps it for every clone and push; a person decides`;
}

async function anyTierAnswer(parsed: ParsedShell, ctx: TierContext): Promise<TierAnswer | null> {
  const answer = uncardedAnswer(parsed, ctx);
  if (answer !== null && (answer.workspace !== null || answer.readOnlyRule !== null)) return answer;
  const loop = forEachMatchAnswer(parsed, ctx, uncardedAnswer);
  if (loop !== null) return loop;
  if (answer?.fetch != null || ctx.workspace === null) return answer;
  const line = judgedLine(parsed, ctx);
  if (line === null || line.shell.errors) return answer;
  const scope = tierScope(ctx, line.cwd);
  const { commands } = line.shell;
  const decided =
    (await archiveDecision(line.shell, scope, ctx.readArchive)) ??
    (await inPlaceEditDecision(commands, scope, ctx.trackedClean)) ??
    (await rewriteThroughTempDecision(line.shell, ctx.readOnly, scope, ctx.trackedClean)) ??
    (await restorableAppendDecision(
      line.shell,
      ctx.readOnly,
      ctx.workspace,
      scope,
      ctx.trackedClean,
    ));
  return decided === null ? answer : workspaceAnswer(decided);
}

/**
 * Why this shell call must not run able to write, by a rule or a card that does not name them,
 * now (it would run code while files written without a card are unreviewed), judged in the
 * directory the line works in; or null.
 */
export function codeReviewReason(given: ParsedShell, ctx: TierContext): string | null {
  const folded = foldCd(judgeShellString(given), ctx);
  const { shell, cwd } = foldDirectoryOption(folded, ctx.paths, ctx.isDirectory);
  const reason = unreviewedCodeReason(shell, ctx.readOnly, tierScope(ctx, cwd));
  return reason ?? (folded.fallback === undefined ? null : codeReviewReason(folded.fallback, ctx));
}

/**
 * The fetch tier's answer for a line that is one plain curl or wget GET whose output only read-only
 * commands read, or that saves it to a file the workspace tier could make (new, inside
 * roots.write, not hidden); null otherwise.
 */
function fetchAnswer(
  shell: ParsedShell,
  readOnly: NonNullable<TierContext['readOnly']>,
  scope: WorkspaceScope,
): FetchAnswer | null {
  const fetched = fetchLine(shell);
  if (fetched === null) return null;
  if (fetched.output !== null) {
    const needs = writableFor([{ path: fetched.output, mode: 'create' }], scope);
    return needs === null
      ? null
      : { rule: fetched.rule, writable: [...needs.dirs], records: needs.written };
  }
  const readsOnly =
    fetched.rest.commands.length === 0 || readOnlyRuleFor(fetched.rest, readOnly, scope) !== null;
  return readsOnly ? { rule: fetched.rule, writable: [], records: [] } : null;
}

/** A workspace decision as the tiers' answer. */
export function workspaceAnswer(workspace: WorkspaceDecision | null): TierAnswer {
  const signals = workspace !== null ? [`workspace: ${workspace.rule}`] : [];
  return { readOnlyRule: null, fetch: null, workspace, signals };
}

/** What the tiers' path checks need, for a call that works in `cwd`. */
export function tierScope(ctx: TierContext, cwd: string): WorkspaceScope {
  const { paths } = ctx;
  let protectedDirs: readonly string[] | undefined;
  const gitConfigs = new Map<string, string | null>();
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
    isPlainFile: ctx.isPlainFile,
    protectedDirs: () => (protectedDirs ??= ctx.protectedDirs()),
    gitConfig(dir) {
      if (!gitConfigs.has(dir)) gitConfigs.set(dir, paths.gitConfig(dir));
      return gitConfigs.get(dir) ?? null;
    },
    unreviewed: ctx.unreviewed,
  };
}
