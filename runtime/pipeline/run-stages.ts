// The stages in order, first non-pass wins: a `for…of` over STAGES. Pure decision logic: no
// audit, no execution. A stage that throws denies, and the reason names the stage it reached.
import {
  listsCommandLines,
  needsHostProcesses,
  onlyListsHostProcesses,
} from '../../constitution/process-use.ts';
import { storedCredentialIn } from '../../constitution/stored-credentials.ts';
import { someCommandLine } from '../../executors/ops/process-table.ts';
import { networkUse } from '../../constitution/network-use.ts';
import type { AnyExecutor } from '../../executors/define.ts';
import type { RuleStore } from '../approvals/types.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../log/logger.ts';
import { initShellParser, parseShell, type ParsedShell } from '../shell/parse.ts';
import {
  guardCall,
  MENTION_SIGNAL,
  SECRET_TOKEN_SIGNAL,
  STORED_CREDENTIAL_SIGNAL,
} from '../vaglio/guard.ts';
import type { CallContext } from '../vaglio/judge.ts';
import type { LlmPanel } from '../vaglio/panel.ts';
import type { Verdict } from '../vaglio/verdict.ts';
import { checkHints } from './check-hints.ts';
import { runJudgeStage } from './judge-stage.ts';
import type { PathOracle } from './paths.ts';
import { decidePolicy } from './policy.ts';
import type { RealPath } from './scope-paths.ts';
import { fileToolAnswer, type TrackedClean } from './tiers/files.ts';
import type { StagedOnly } from './tiers/unstage-check.ts';
import {
  codeReviewReason,
  shellTierAnswer,
  workspaceAnswer,
  type TierContext,
} from './tiers/index.ts';
import type { ArchiveReader } from './tiers/archive-extraction.ts';
import type { DenyStage, PipelineOutcome, ProposedCall } from './types.ts';
import { validateArgs } from './validate-args.ts';
import type { WorkspaceCatalogue } from './workspace/match.ts';
import type { UnreviewedWrites } from './workspace/unreviewed.ts';
import type { ReadOnlyMatcher } from './read-only-policy.ts';

export interface StageDeps {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly registry: ReadonlyMap<string, AnyExecutor>;
  readonly realPath: RealPath;
  /** Every path question: protected places, roots, links (paths.ts). */
  readonly paths: PathOracle;
  readonly panel: LlmPanel | null;
  readonly rules: RuleStore | undefined;
  readonly readOnly: ReadOnlyMatcher | null;
  readonly workspace: WorkspaceCatalogue | null;
  readonly isDirectory: (path: string) => boolean;
  readonly entryExists: (path: string) => boolean;
  /** The names in a directory, or null: what a glob there can expand to. */
  readonly namesIn: (dir: string) => readonly string[] | null;
  /** A small existing file's text (a script a line runs, a list it feeds), or null. */
  readonly readSmallText: (path: string) => string | null;
  /** A plain, non-executable notes, log or table file: an append only adds lines to it. */
  readonly isAppendableData: (path: string) => boolean;
  /** A regular file with no execute bit and one name (links not followed). */
  readonly isPlainFile: (path: string) => boolean;
  /**
   * Custode's own dirs and where commands are found (the workspace rules never write there),
   * looked up when a shell line asks: a file tool's decision does not.
   */
  readonly protectedDirs: () => readonly string[];
  readonly unreviewed: UnreviewedWrites;
  /** Whether git can give a file back (tracked, unmodified): a file tool may then rewrite it. */
  readonly trackedClean: TrackedClean;
  /** Whether an index holds a version neither HEAD nor the work tree has: unstaging then asks. */
  readonly stagedOnly: StagedOnly;
  /** An archive's member list and identity: an unpacking may then run without a card. */
  readonly readArchive: ArchiveReader;
  readonly tools: readonly { name: string; description: string }[];
  readonly logger: Logger;
}

/** A verdict for a call denied before any judge ran. */
export function stageDenialVerdict(
  stage: DenyStage,
  reason: string,
  signals: readonly string[],
): Verdict {
  return {
    approved: false,
    reason,
    ts: new Date().toISOString(),
    judge_kind: 'rule-based-v1',
    score: 0,
    confidence: 1,
    blocked_by: stage === 'guard' ? 'guard' : null,
    signals,
  };
}

function denied(
  stage: DenyStage,
  reason: string,
  signals: readonly string[],
  extra: Partial<Pick<PipelineOutcome, 'executor' | 'args' | 'issues'>> = {},
): PipelineOutcome {
  return {
    decision: 'deny',
    stage,
    reason,
    signals,
    verdict: stageDenialVerdict(stage, reason, signals),
    ...extra,
  };
}

/** What the stages have learnt so far about one call; each stage reads and adds. */
interface Evaluation {
  readonly call: ProposedCall;
  readonly deps: StageDeps;
  readonly signal: AbortSignal | undefined;
  readonly context: CallContext;
  executor?: AnyExecutor;
  args?: Readonly<Record<string, unknown>>;
  shell?: ParsedShell | null;
  /** What the guard noted on a pass (a protected path only mentioned, a secret-shaped token). */
  guardSignals?: readonly string[];
  verdict?: Verdict;
  threshold?: number;
}

interface Found {
  readonly executor: AnyExecutor;
  readonly args: Readonly<Record<string, unknown>>;
  readonly shell: ParsedShell | null;
}

function found(ev: Evaluation): Found {
  if (ev.executor === undefined || ev.args === undefined || ev.shell === undefined)
    throw new Error('a stage ran before validate_args');
  return { executor: ev.executor, args: ev.args, shell: ev.shell };
}

function contextOf(call: ProposedCall): CallContext {
  return call.context !== null && typeof call.context === 'object' && !Array.isArray(call.context)
    ? call.context
    : {};
}

/** The command argument's parse; the bash grammar is loaded by the first call that has one. */
async function parseCommand(
  executor: AnyExecutor,
  args: Readonly<Record<string, unknown>>,
): Promise<ParsedShell | null> {
  const key = executor.capabilities.commandArg;
  const command = key === undefined ? undefined : args[key];
  if (typeof command !== 'string') return null;
  await initShellParser();
  return parseShell(command);
}

/** 1. validate_args: the executor's zod schema. */
async function validateStage(ev: Evaluation): Promise<PipelineOutcome | null> {
  const validation = validateArgs(ev.deps.registry, ev.call.executor, ev.call.args);
  if (!validation.ok)
    return denied('validation', validation.reason, ['invalid arguments'], {
      issues: validation.issues,
    });
  ev.executor = validation.executor;
  ev.args = validation.args as Readonly<Record<string, unknown>>;
  ev.shell = await parseCommand(ev.executor, ev.args);
  return null;
}

/** 2. check_hints: capabilities, roots, the command allowlist, URLs. */
function scopeStage(ev: Evaluation): PipelineOutcome | null {
  const { executor, args, shell } = found(ev);
  const scope = checkHints({
    executor,
    args,
    context: ev.context,
    config: ev.deps.config,
    paths: ev.deps.paths,
    shell,
  });
  return scope.kind === 'deny'
    ? denied('scope', scope.reason, scope.signals, { executor, args })
    : null;
}

/**
 * 3. guard: the constitution on the words, then each path argument as the tool will open it
 * (links resolved, Custode's own dirs wherever they are), asked of the one protected list.
 */
function guardStage(ev: Evaluation): PipelineOutcome | null {
  const { executor, args, shell } = found(ev);
  const { paths } = ev.deps;
  const { commandArg } = executor.capabilities;
  const guard = guardCall({
    executor: executor.name,
    args,
    home: paths.home,
    realPath: paths.real,
    readText: ev.deps.readSmallText,
    publicKey: paths.publicKey,
    readsOnly: !executor.critical,
    ...(commandArg === undefined ? {} : { commandArg }),
    ...(shell === null ? {} : { parsed: shell }),
  });
  if (guard.blocked) return denied('guard', guard.reason, guard.signals, { executor, args });
  ev.guardSignals = guard.signals;
  for (const key of executor.capabilities.pathArgs) {
    const value = args[key];
    if (typeof value !== 'string') continue;
    const path = paths.absolute(value);
    // A tool that changes nothing may read a public key file (constitution/public-keys.ts).
    const place = paths.protection(path, { read: !executor.critical });
    if (place !== null)
      return denied('guard', `forbidden path: ${place.name}`, ['forbidden path'], {
        executor,
        args,
      });
    // A git config holding a login is not forbidden by name: reading it takes a card.
    if (paths.storedCredential(path) !== null)
      ev.guardSignals = [...ev.guardSignals, STORED_CREDENTIAL_SIGNAL];
  }
  return null;
}

/** 4. judge: rule-based-v1, or the configured LLM judges. */
async function judgeStage(ev: Evaluation): Promise<PipelineOutcome | null> {
  const { executor, args } = found(ev);
  const intent = typeof ev.call.intent === 'string' ? ev.call.intent : '';
  const judged = await runJudgeStage({
    judgeInput: {
      intent,
      executor: executor.name,
      args,
      context: ev.context,
      availableTools: ev.deps.tools,
    },
    executor,
    config: ev.deps.config,
    env: ev.deps.env,
    panel: ev.deps.panel,
    ...(ev.signal === undefined ? {} : { signal: ev.signal }),
  });
  const { verdict } = judged;
  ev.verdict = verdict;
  ev.threshold = judged.threshold;
  if (verdict.approved) return null;
  return {
    decision: 'deny',
    stage: 'judge',
    reason: verdict.reason,
    signals: verdict.signals,
    verdict,
    executor,
    args,
  };
}

/**
 * What a call an always-allow rule let through writes, for the unreviewed record: a file tool's
 * paths, or, for a command, anything it could.
 */
function ruleRecords(ev: Evaluation): readonly string[] | 'anything' {
  const { executor, args } = found(ev);
  const { access, pathArgs } = executor.capabilities;
  if (access === 'exec') return 'anything';
  if (access !== 'write') return [];
  return pathArgs.flatMap((key) => {
    const value = args[key];
    return typeof value === 'string' ? [ev.deps.paths.real(ev.deps.paths.absolute(value))] : [];
  });
}

/** The call with each path argument resolved through its links (what a rule must cover too). */
function resolvedCall(ev: Evaluation): ProposedCall {
  const { executor, args } = found(ev);
  const resolved: Record<string, unknown> = { ...args };
  for (const key of executor.capabilities.pathArgs) {
    const value = args[key];
    if (typeof value === 'string')
      resolved[key] = ev.deps.paths.real(ev.deps.paths.absolute(value));
  }
  return { ...ev.call, args: resolved };
}

/**
 * The tiers' view of one call, field by field: in Node 20 `{ ...deps, executor, args, context }`
 * costs ~10 µs (the copy of a shape that then grows is built slowly), a tenth of a decision.
 */
function tierContextOf(
  deps: StageDeps,
  call: Pick<TierContext, 'executor' | 'args' | 'context'>,
): TierContext {
  return {
    config: deps.config,
    env: deps.env,
    registry: deps.registry,
    realPath: deps.realPath,
    paths: deps.paths,
    panel: deps.panel,
    rules: deps.rules,
    readOnly: deps.readOnly,
    workspace: deps.workspace,
    isDirectory: deps.isDirectory,
    entryExists: deps.entryExists,
    namesIn: deps.namesIn,
    readSmallText: deps.readSmallText,
    isAppendableData: deps.isAppendableData,
    isPlainFile: deps.isPlainFile,
    protectedDirs: deps.protectedDirs,
    unreviewed: deps.unreviewed,
    trackedClean: deps.trackedClean,
    stagedOnly: deps.stagedOnly,
    readArchive: deps.readArchive,
    tools: deps.tools,
    logger: deps.logger,
    executor: call.executor,
    args: call.args,
    context: call.context,
  };
}

/** 5. policy: the uncarded tiers (tiers/), then allow or ask. Always decides. */
async function policyStage(ev: Evaluation): Promise<PipelineOutcome> {
  const { executor, args, shell } = found(ev);
  const { verdict, threshold } = ev;
  if (verdict === undefined || threshold === undefined) throw new Error('policy ran before judge');
  const tierContext = tierContextOf(ev.deps, { executor, args, context: ev.context });
  const tiers =
    shell === null
      ? await fileToolAnswer(tierContext, ev.deps.trackedClean)
      : searchesCredentialCommandLines(shell)
        ? { ...workspaceAnswer(null), askReason: COMMAND_LINE_CREDENTIAL }
        : await shellTierAnswer(shell, tierContext);
  const policy = decidePolicy({
    call: ev.call,
    executor,
    config: ev.deps.config,
    verdict,
    threshold,
    rules: ev.deps.rules,
    ruleRecords: ruleRecords(ev),
    needsNetwork: shell !== null && networkUse(shell).needed,
    hostProcesses: {
      needed: shell !== null && needsHostProcesses(shell),
      listsOnly: shell !== null && onlyListsHostProcesses(shell),
    },
    readOnlyRule: tiers?.readOnlyRule ?? null,
    fetch: tiers?.fetch ?? null,
    workspace: tiers?.workspace ?? null,
    guardSignals: ev.guardSignals ?? [],
    resolvedCall: resolvedCall(ev),
    codeReview: () => (shell === null ? null : codeReviewReason(shell, tierContext)),
    askReason: tiers?.askReason ?? null,
  });
  const carded = (ev.guardSignals ?? []).filter(
    (s) => s === MENTION_SIGNAL || s === SECRET_TOKEN_SIGNAL || s === STORED_CREDENTIAL_SIGNAL,
  );
  const signals = [...carded, ...verdict.signals, ...(tiers?.signals ?? [])];
  const base = { reason: policy.reason, signals, verdict, executor, args };
  return policy.decision === 'allow'
    ? { decision: 'allow', stage: null, ...base, grant: policy.grant }
    : { decision: 'ask', stage: null, ...base };
}

/** The stages in the order DESIGN.md draws them; the deny stage a crash in each reports. */
const STAGES: readonly {
  readonly name: string;
  readonly failsAs: DenyStage;
  run(ev: Evaluation): PipelineOutcome | null | Promise<PipelineOutcome | null>;
}[] = [
  { name: 'validate_args', failsAs: 'validation', run: validateStage },
  { name: 'check_hints', failsAs: 'scope', run: scopeStage },
  { name: 'guard', failsAs: 'guard', run: guardStage },
  { name: 'judge', failsAs: 'judge', run: judgeStage },
  { name: 'policy', failsAs: 'judge', run: policyStage },
];

/** Run every stage; anything that throws denies at the stage it reached (fail closed). */
export async function evaluateStages(
  call: ProposedCall,
  deps: StageDeps,
  signal?: AbortSignal,
): Promise<PipelineOutcome> {
  const ev: Evaluation = { call, deps, signal, context: contextOf(call) };
  for (const stage of STAGES) {
    try {
      const outcome = await stage.run(ev);
      if (outcome !== null) return outcome;
    } catch (error) {
      deps.logger.error(
        { err: error, executor: String(call.executor), stage: stage.name },
        'pipeline stage threw; denying',
      );
      const name = error instanceof Error ? error.name : 'Error';
      return denied(stage.failsAs, `vaglio error (${name}) in ${stage.name}: failing closed`, [
        'stage error',
      ]);
    }
  }
  throw new Error('the policy stage always decides');
}

const COMMAND_LINE_CREDENTIAL =
  "policy: a program's command line on this machine holds a credential, and this line lists or searches command lines (ps, pgrep -f): even with the credential cut from what it prints, a search answers yes or no about it";

/**
 * A line that lists or searches other programs' command lines on a host where one holds a
 * credential (`psql postgresql://app:PASS@db`): whatever the output check cuts, a search answers
 * yes or no about it (`pgrep -fc 'app:P'` counts one more for the right next character), so no
 * tier answers it: a person sees the card.
 */
function searchesCredentialCommandLines(shell: ParsedShell): boolean {
  return (
    listsCommandLines(shell) &&
    someCommandLine((commandLine) => storedCredentialIn(commandLine) !== null)
  );
}
