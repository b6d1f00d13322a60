// The stages in order, first non-pass wins. Pure decision logic: no audit, no execution.
import type { AnyExecutor } from '../../executors/define.ts';
import type { RuleStore } from '../approvals/types.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../log/logger.ts';
import { parseShell, type ParsedShell } from '../shell/parse.ts';
import { guardCall, MENTION_SIGNAL, SECRET_TOKEN_SIGNAL } from '../vaglio/guard.ts';
import type { CallContext } from '../vaglio/judge.ts';
import type { LlmPanel } from '../vaglio/panel.ts';
import type { Verdict } from '../vaglio/verdict.ts';
import { checkHints } from './check-hints.ts';
import { runJudgeStage } from './judge-stage.ts';
import { decidePolicy } from './policy.ts';
import { readOnlyRuleFor, type ReadOnlyMatcher } from './read-only-policy.ts';
import {
  absoluteUserPath,
  climbsThroughName,
  resolveThroughSymlinks,
  shellWorkingDirectory,
  type RealPath,
  type ResolvedRoots,
} from './scope-paths.ts';
import type { DenyStage, PipelineOutcome, ProposedCall } from './types.ts';
import { validateArgs } from './validate-args.ts';
import type { WorkspaceCatalogue } from './workspace/match.ts';
import type { UnreviewedWrites } from './workspace/unreviewed.ts';
import { workspaceDecisionFor, type WorkspaceDecision } from './workspace/policy.ts';

export interface StageDeps {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly registry: ReadonlyMap<string, AnyExecutor>;
  readonly realPath: RealPath;
  readonly home: string;
  /** The home with its symlinks resolved, once per pipeline. */
  readonly realHome: string;
  readonly roots: ResolvedRoots;
  readonly panel: LlmPanel | null;
  readonly rules: RuleStore | undefined;
  readonly readOnly: ReadOnlyMatcher | null;
  readonly workspace: WorkspaceCatalogue | null;
  readonly isDirectory: (path: string) => boolean;
  readonly entryExists: (path: string) => boolean;
  /** Custode's own dirs and where commands are found (the workspace rules never write there). */
  readonly protectedDirs: readonly string[];
  readonly unreviewed: UnreviewedWrites;
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
  extra: Partial<PipelineOutcome> = {},
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

function contextOf(call: ProposedCall): CallContext {
  return call.context !== null && typeof call.context === 'object' && !Array.isArray(call.context)
    ? call.context
    : {};
}

function parseCommand(
  executor: AnyExecutor,
  args: Readonly<Record<string, unknown>>,
): ParsedShell | null {
  const key = executor.capabilities.commandArg;
  const command = key === undefined ? undefined : args[key];
  return typeof command === 'string' ? parseShell(command) : null;
}

/** The catalogue rule names behind an uncarded shell call, for the audit line. */
function tierSignals(readOnlyRule: string | null, workspace: WorkspaceDecision | null): string[] {
  if (readOnlyRule !== null) return [`read-only: ${readOnlyRule}`];
  return workspace?.kind === 'allow' ? [`workspace: ${workspace.rule}`] : [];
}

async function runStages(
  call: ProposedCall,
  deps: StageDeps,
  signal?: AbortSignal,
): Promise<PipelineOutcome> {
  const validation = validateArgs(deps.registry, call.executor, call.args);
  if (!validation.ok)
    return denied('validation', validation.reason, ['invalid arguments'], {
      issues: validation.issues,
    });
  const { executor } = validation;
  const args = validation.args as Readonly<Record<string, unknown>>;
  const found = { executor, args };
  const context = contextOf(call);
  const { home, roots } = deps;
  const shell = parseCommand(executor, args);

  const scopeInput = {
    executor,
    args,
    context,
    config: deps.config,
    home,
    realPath: deps.realPath,
    roots,
  };
  const scope = checkHints({ ...scopeInput, shell });
  if (scope.kind === 'deny') return denied('scope', scope.reason, scope.signals, found);

  const guard = guardCall({
    executor: executor.name,
    args,
    home,
    ...(executor.capabilities.commandArg === undefined
      ? {}
      : { commandArg: executor.capabilities.commandArg }),
    ...(shell === null ? {} : { parsed: shell }),
  });
  if (guard.blocked) return denied('guard', guard.reason, guard.signals, found);

  const intent = typeof call.intent === 'string' ? call.intent : '';
  const judgeInput = { intent, executor: executor.name, args, context, availableTools: deps.tools };
  const judged = await runJudgeStage({
    judgeInput,
    executor,
    config: deps.config,
    env: deps.env,
    panel: deps.panel,
    ...(signal === undefined ? {} : { signal }),
  });
  const { verdict } = judged;
  if (!verdict.approved) {
    return {
      decision: 'deny',
      stage: 'judge',
      reason: verdict.reason,
      signals: verdict.signals,
      verdict,
      ...found,
    };
  }

  // The model may ask for a card (to run with every root writable): no tier answers for it.
  // A cwd with `..` after a name is not judged from its text (/dev/fd/../root is /).
  const cwdClimbs = typeof args.cwd === 'string' && climbsThroughName(args.cwd);
  const uncarded = args.request_approval === true || cwdClimbs ? null : shell;
  const shellScope = {
    ...scopeInput,
    realHome: deps.realHome,
    cwd:
      uncarded === null
        ? deps.realHome
        : shellWorkingDirectory(args, home, deps.realHome, deps.realPath),
  };
  const readOnlyRule =
    uncarded === null || deps.readOnly === null
      ? null
      : readOnlyRuleFor(uncarded, deps.readOnly, shellScope);
  const workspace =
    uncarded === null || readOnlyRule !== null || deps.workspace === null
      ? null
      : workspaceDecisionFor(uncarded, deps.readOnly, deps.workspace, {
          ...shellScope,
          isDirectory: deps.isDirectory,
          entryExists: deps.entryExists,
          protectedDirs: deps.protectedDirs,
          unreviewed: deps.unreviewed,
        });
  const policy = decidePolicy({
    call,
    executor,
    config: deps.config,
    verdict,
    threshold: judged.threshold,
    rules: deps.rules,
    readOnlyRule,
    workspace,
    guardSignals: guard.signals,
  });
  const carded = guard.signals.filter((s) => s === MENTION_SIGNAL || s === SECRET_TOKEN_SIGNAL);
  const signals = [...carded, ...verdict.signals, ...tierSignals(readOnlyRule, workspace)];
  return {
    decision: policy.decision,
    stage: null,
    reason: policy.reason,
    signals,
    verdict,
    ...found,
    ...(policy.decision === 'allow' && policy.writable !== undefined
      ? {
          writable: policy.writable,
          readOnlyWithin: policy.readOnlyWithin ?? [],
          written: policy.written ?? [],
        }
      : {}),
    ...(policy.decision === 'allow' && policy.byRule === true
      ? unseenWrites(executor, args, deps)
      : {}),
    // A person approved project code that asked over unreviewed files: those are now reviewed.
    ...(policy.decision === 'allow' && call.approvedBy !== undefined && workspace?.kind === 'ask'
      ? { reviews: true }
      : {}),
  };
}

/**
 * What a call an always-allow rule let through writes, for the unreviewed record: a file tool's
 * paths, or, for a command, anything it could.
 */
function unseenWrites(
  executor: AnyExecutor,
  args: Readonly<Record<string, unknown>>,
  deps: StageDeps,
): Pick<PipelineOutcome, 'written' | 'writesUnseen'> {
  const { access, pathArgs } = executor.capabilities;
  if (access === 'exec') return { writesUnseen: true };
  if (access !== 'write') return {};
  const written = pathArgs.flatMap((key) => {
    const value = args[key];
    if (typeof value !== 'string') return [];
    return [resolveThroughSymlinks(absoluteUserPath(value, deps.home), deps.realPath)];
  });
  return { written };
}

/** Run every stage; anything that throws denies at the stage it reached (fail closed). */
export async function evaluateStages(
  call: ProposedCall,
  deps: StageDeps,
  signal?: AbortSignal,
): Promise<PipelineOutcome> {
  try {
    return await runStages(call, deps, signal);
  } catch (error) {
    deps.logger.error(
      { err: error, executor: String(call.executor) },
      'pipeline stage threw; denying',
    );
    const name = error instanceof Error ? error.name : 'Error';
    return denied('judge', `vaglio error (${name}): failing closed`, ['stage error']);
  }
}
