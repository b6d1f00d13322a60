// The channel-neutral card for a call the pipeline asked about or refused: what will happen
// (verb, target, reversible or not) before how (the raw command or arguments).
import type { AnyExecutor } from '../../executors/define.ts';
import { homeDir } from '../paths.ts';
import type { DenyStage, PipelineOutcome, ProposedCall } from '../pipeline/types.ts';
import type { ApprovalCard } from './card.ts';
import { classOf, displayPath, hostOf, pathsOf, stringArg, verbFor } from './describe-call.ts';
import { shellHeadline } from './shell-scope.ts';

const DETAIL_MAX = 200;
/** A command on a card is shown whole up to this, then by its head and its tail. */
const COMMAND_MAX = 1500;

const ADVICE: Readonly<Record<DenyStage, string>> = {
  validation: 'Fix the arguments: the call did not match what the tool accepts.',
  scope:
    'Narrow the path, or widen the configured scope (roots, shell.subcommand_allowlist, web.domain_allowlist) in the config file.',
  guard:
    'This is forbidden by the constitution and cannot be approved. Rephrase what you need without touching it.',
  judge:
    'The vaglio judged this not to match your request. Rephrase the request so it says exactly what you want.',
  audit:
    'Nothing runs without its audit line. Free space or fix the permissions where the audit log lives, then ask again (or set audit.on_failure: continue to run unlogged).',
};

/** `text` cut to `max` characters with an ellipsis. */
export function shorten(text: string, max = DETAIL_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function targetOf(
  executor: AnyExecutor | undefined,
  call: ProposedCall,
  args: unknown,
  home: string,
): string {
  const kind = classOf(executor, call.executor);
  if (
    executor !== undefined &&
    kind === 'shell' &&
    executor.capabilities.commandArg !== undefined
  ) {
    const command = stringArg(args, executor.capabilities.commandArg);
    return command === undefined ? '(no command)' : shorten(shellHeadline(command), 80);
  }
  if (executor !== undefined && kind === 'web' && executor.capabilities.urlArg !== undefined) {
    const url = stringArg(args, executor.capabilities.urlArg);
    return hostOf(url) ?? shorten(url ?? '(no URL)', 80);
  }
  if (executor !== undefined && kind === 'files') {
    const paths = pathsOf(executor, args, { HOME: home });
    if (paths.length > 0) return shorten(paths.map((p) => displayPath(p, home)).join(', '), 120);
  }
  return call.executor;
}

/**
 * A command as the person must see it to approve it: whole, or its head and tail (what runs
 * last is often what matters: `echo … && git push --force`), with where it runs and its $1...
 */
function commandDetail(command: string, args: unknown): string {
  const flat = command.trim();
  const half = Math.floor(COMMAND_MAX / 2);
  const text =
    flat.length <= COMMAND_MAX
      ? flat
      : `${flat.slice(0, half)} … (${String(flat.length - 2 * half)} characters not shown) … ${flat.slice(-half)}`;
  const cwd = stringArg(args, 'cwd');
  const extra =
    args !== null && typeof args === 'object' && Array.isArray((args as { args?: unknown }).args)
      ? (args as { args: unknown[] }).args
      : [];
  return [
    text,
    ...(cwd === undefined ? [] : [`in ${cwd}`]),
    ...(extra.length === 0 ? [] : [`with $1... = ${shorten(JSON.stringify(extra))}`]),
  ].join('\n');
}

function detailOf(executor: AnyExecutor | undefined, args: unknown): string {
  const commandArg = executor?.capabilities.commandArg;
  const command = commandArg === undefined ? undefined : stringArg(args, commandArg);
  if (command !== undefined) return commandDetail(command, args);
  let text: string;
  try {
    text = JSON.stringify(args) ?? String(args);
  } catch {
    text = String(args);
  }
  return shorten(text);
}

/** The card for an ask (kind 'approval') or a deny (kind 'refusal', with advice by stage). */
export function buildCard(call: ProposedCall, outcome: PipelineOutcome): ApprovalCard {
  const home = homeDir();
  const executor = outcome.executor;
  const args = outcome.args ?? call.args;
  const verb = verbFor(call.executor);
  const target = targetOf(executor, call, args, home);
  const reversible = executor !== undefined && (!executor.critical || call.executor === 'fs_mkdir');
  const base = {
    headline: `${verb} ${target}`,
    verb,
    target,
    reversible,
    executorClass: classOf(executor, call.executor),
    executor: call.executor,
    detail: detailOf(executor, args),
    score: outcome.verdict.score,
    reason: outcome.reason,
  };
  if (outcome.decision !== 'deny') return { kind: 'approval', ...base };
  return { kind: 'refusal', ...base, advice: ADVICE[outcome.stage ?? 'judge'] };
}
