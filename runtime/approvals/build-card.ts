// The channel-neutral card for a call the pipeline asked about or refused: the effect on the
// full target first (a phone's notification shows only the headline), then whether this call
// can be undone, the network it needs, what changes, what "Always allow" would save, and the
// vaglio's details last. The pipeline's outcome is read defensively: only the fields a card
// needs, each checked, so the outcome's shape may grow without breaking cards.
import type { LookUpProgram } from '../../executors/ops/program-lookup.ts';
import { sandboxLimitLine } from './sandbox-limits.ts';
import type { AnyExecutor } from '../../executors/define.ts';
import { executorRegistry } from '../../executors/index.ts';
import { resolvePath } from '../../executors/resolve-path.ts';
import { homeDir } from '../paths.ts';
import type { PipelineOutcome, ProposedCall } from '../pipeline/types.ts';
import type { ApprovalCard } from './card.ts';
import { classOf, displayPath, pathsOf, stringArg, verbFor } from './describe-call.ts';
import type { Effect } from './effect.ts';
import { middleCut, shorten } from './excerpt.ts';
import { fileEffect } from './file-effect.ts';
import { refusalAdvice } from './refusal-advice.ts';
import { shellEffect } from './shell-effect.ts';
import type { InspectTarget, ReadRemotes, TargetFacts } from './target-facts.ts';
import type { AllowRule } from './types.ts';
import { visibleLine, visibleText } from './visible-text.ts';
import { webEffect } from './web-effect.ts';

const DETAIL_MAX = 200;
// A card must fit one Telegram message (4,096 characters) with its last lines: these bound the
// lines that carry model-supplied text besides the detail (itself bounded by its builder).
const ALWAYS_MAX = 300;
const REASON_MAX = 600;
/** A file's path on the headline. */
const PATH_MAX = 200;

export interface CardDeps {
  /** Looks at a file target (exists, size, text, git); absent = the card does not look. */
  readonly inspect?: InspectTarget;
  /** Reads the git remotes where a command runs (its network line names their hosts). */
  readonly readRemotes?: ReadRemotes;
  /** The rule "Always allow" would save for a call, or null when none is safe. */
  readonly proposeRule?: (call: ProposedCall) => AllowRule | null;
  readonly env?: NodeJS.ProcessEnv;
  /** Finds a command's programs, so a card can say when the sandbox dooms the run. */
  readonly lookUpProgram?: LookUpProgram;
  /** roots.write, resolved: what an approved command may write. */
  readonly writeRoots?: readonly string[];
  /** The executors by name (the registry by default). */
  readonly executors?: ReadonlyMap<string, AnyExecutor>;
}

export type BuildCard = (call: ProposedCall, outcome: PipelineOutcome) => Promise<ApprovalCard>;

/** The facts of an outcome a card reads, whatever else the outcome carries. */
interface OutcomeView {
  readonly refused: boolean;
  readonly stage: string | null;
  readonly reason: string;
  readonly score: number;
  readonly signals: readonly string[];
  readonly executor: AnyExecutor | undefined;
  readonly args: unknown;
}

function field(outcome: unknown, key: string): unknown {
  return outcome !== null && typeof outcome === 'object' && Object.hasOwn(outcome, key)
    ? (outcome as Record<string, unknown>)[key]
    : undefined;
}

function viewOf(
  call: ProposedCall,
  outcome: PipelineOutcome,
  executors: ReadonlyMap<string, AnyExecutor>,
): OutcomeView {
  const verdict = field(outcome, 'verdict');
  const score = field(verdict, 'score');
  const stage = field(outcome, 'stage');
  const signals = field(outcome, 'signals');
  const reason = field(outcome, 'reason');
  const executor = field(outcome, 'executor');
  const args = field(outcome, 'args');
  return {
    refused: field(outcome, 'decision') === 'deny',
    stage: typeof stage === 'string' ? stage : null,
    reason: typeof reason === 'string' ? reason : '',
    score: typeof score === 'number' ? score : 0,
    signals: Array.isArray(signals) ? signals.filter((s) => typeof s === 'string') : [],
    // Before validation passed the outcome names none: the registry's (a Map) still says what
    // kind of call it was.
    executor:
      executor !== null && typeof executor === 'object'
        ? (executor as AnyExecutor)
        : executors.get(call.executor),
    args: args === undefined ? call.args : args,
  };
}

/** Any other call (reads, unknown tools): the verb, the paths or name, the arguments. */
function plainEffect(call: ProposedCall, view: OutcomeView, env: NodeJS.ProcessEnv): Effect {
  const home = homeDir(env);
  const paths =
    view.executor === undefined
      ? []
      : pathsOf(view.executor, view.args, env).map((p) => displayPath(p, home));
  const target = paths.length > 0 ? shorten(paths.join(', '), 120) : call.executor;
  const verb = verbFor(call.executor);
  let text: string;
  try {
    text = JSON.stringify(view.args) ?? String(view.args);
  } catch {
    text = String(view.args);
  }
  const reads = view.executor?.capabilities.access === 'read';
  return {
    verb,
    target,
    headline: `${verb} ${target}`,
    reversible: reads,
    undo: reads ? 'Nothing changes: it only reads' : 'Cannot be undone',
    detail: shorten(text, DETAIL_MAX),
  };
}

async function effectOf(
  call: ProposedCall,
  view: OutcomeView,
  deps: CardDeps,
  env: NodeJS.ProcessEnv,
): Promise<Effect> {
  const { executor } = view;
  const kind = classOf(executor, call.executor);
  const commandArg = executor?.capabilities.commandArg;
  const command = commandArg === undefined ? undefined : stringArg(view.args, commandArg);
  if (kind === 'shell' && command !== undefined) {
    const cwd = resolvePath(stringArg(view.args, 'cwd') ?? '~', env);
    const remotes =
      deps.readRemotes === undefined || view.refused
        ? { urls: new Map<string, string>(), defaultRemote: null }
        : await deps.readRemotes(cwd);
    const effect = shellEffect(command, view.args, env, remotes);
    const limits =
      deps.lookUpProgram === undefined || view.refused
        ? null
        : sandboxLimitLine(command, deps.lookUpProgram, deps.writeRoots ?? []);
    return limits === null ? effect : { ...effect, limits };
  }
  if (kind === 'web') {
    const urlArg = executor?.capabilities.urlArg;
    return webEffect(urlArg === undefined ? undefined : stringArg(view.args, urlArg));
  }
  const paths = executor === undefined ? [] : pathsOf(executor, view.args, env);
  const [path] = paths;
  if (kind === 'files' && path !== undefined && paths.length === 1) {
    // A refused call is never looked at: its target may be a place the guard forbids.
    const facts: TargetFacts | null =
      view.refused || deps.inspect === undefined
        ? null
        : await deps.inspect(path, { text: call.executor !== 'fs_delete' });
    const shown = middleCut(displayPath(path, homeDir(env)), PATH_MAX);
    const effect = fileEffect({ executor: call.executor, args: view.args, path, shown, facts });
    if (effect !== null) return effect;
  }
  return plainEffect(call, view, env);
}

function alwaysLine(call: ProposedCall, deps: CardDeps): string | undefined {
  if (deps.proposeRule === undefined) return undefined;
  const rule = deps.proposeRule(call);
  return rule === null
    ? 'Always allow saves no rule: none is narrow enough here, so it allows this once'
    : `Always allow saves: ${middleCut(rule.description.replace(/^Always allow /, ''), ALWAYS_MAX)}`;
}

/** A card builder over the injected look at targets and rule proposer. */
export function createCardBuilder(deps: CardDeps = {}): BuildCard {
  const env = deps.env ?? process.env;
  const executors = deps.executors ?? executorRegistry;
  return async (call, outcome) => {
    const view = viewOf(call, outcome, executors);
    const effect = await effectOf(call, view, deps, env);
    const always = view.refused ? undefined : alwaysLine(call, deps);
    const advice = view.refused ? refusalAdvice(view.stage, view.signals) : undefined;
    return {
      kind: view.refused ? 'refusal' : 'approval',
      headline: visibleLine(effect.headline),
      verb: visibleLine(effect.verb),
      target: visibleLine(effect.target),
      reversible: effect.reversible,
      undo: visibleText(effect.undo),
      ...(effect.network === undefined ? {} : { network: visibleText(effect.network) }),
      ...(effect.limits === undefined ? {} : { limits: visibleText(effect.limits) }),
      executorClass: classOf(view.executor, call.executor),
      executor: visibleLine(call.executor),
      detail: visibleText(effect.detail),
      ...(always === undefined ? {} : { always: visibleText(always) }),
      score: view.score,
      reason: visibleText(middleCut(view.reason, REASON_MAX)),
      ...(advice === undefined ? {} : { advice }),
    };
  };
}
