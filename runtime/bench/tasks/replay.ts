// Replays one everyday task through the real chat service (the composition root `custode
// chat` uses: real pipeline, real sandbox, the real openai SDK against a local scripted
// server) in a fresh fixture HOME, answering every approval card ("once" unless told), and records what
// happened to each call: card or not, ran or refused, and whether the run failed.
import { rm } from 'node:fs/promises';
import { createApp } from '../../app.ts';
import type { ApprovalCard } from '../../approvals/card.ts';
import type { ApprovalAnswer } from '../../approvals/types.ts';
import { parseConfig } from '../../config.ts';
import type { InvokeResult, Pipeline } from '../../pipeline/pipeline.ts';
import type { Decision } from '../../pipeline/types.ts';
import type { ChannelSink } from '../../planner/chat-service.ts';
import { buildFixtureHome, fixtureHomeMark } from './fixture-home.ts';
import { closingAnswer, type ScriptedOpenAi } from './scripted-openai.ts';
import type { EverydayTask, TaskCall } from './task-types.ts';

export interface CallRecord {
  readonly call: TaskCall;
  /** The pipeline's first decision on the call (before any card was answered). */
  decision: Decision | null;
  reason: string;
  /** Approval cards shown for this call. */
  cards: number;
  /** The headline of the last card shown, for the report. */
  headline: string;
  /** The last card shown said the sandbox dooms the run ("Will fail in the sandbox: …"). */
  foretold: boolean;
  /** A final refusal (guard, judge, scope), after a card or without one. */
  refused: string | null;
  ran: boolean;
  /** The run came back with an error or a non-zero exit: why, shortened. */
  failure: string | null;
}

export interface TaskResult {
  readonly task: EverydayTask;
  readonly calls: readonly CallRecord[];
  /** The turn reached the model's closing answer. */
  readonly answered: boolean;
  /** Every call ran (with or without a card) and the turn was answered. */
  readonly completed: boolean;
}

const sender = 'local:everyday';
const chatId = 'everyday';

/** The last non-empty line (where error output says what went wrong), cut to fit a report line. */
function shorten(text: string): string {
  const line = text.trim().split('\n').at(-1) ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/** Why a run failed, or null: an executor error, a timeout, or a command that exited non-zero. */
export function runFailure(result: InvokeResult): string | null {
  if (!result.ok) return `${result.error.name}: ${shorten(result.error.message)}`;
  const value = result.result as Partial<Record<'exit_code' | 'timed_out' | 'stderr', unknown>>;
  if (value === null || typeof value !== 'object' || !('exit_code' in value)) return null;
  const stderr = typeof value.stderr === 'string' ? value.stderr : '';
  if (value.timed_out === true) return `timed out: ${shorten(stderr)}`;
  if (value.exit_code === 0) return null;
  return `exit ${String(value.exit_code)}: ${shorten(stderr)}`;
}

/** The call's arguments with the fixture HOME where they name the home by its absolute path. */
function inHome(args: TaskCall['args'], home: string): unknown {
  return JSON.parse(JSON.stringify(args).replaceAll(fixtureHomeMark, home));
}

/** The pipeline, reporting each decision and run to the record of the call in play. */
function observedPipeline(pipeline: Pipeline, current: () => CallRecord | undefined): Pipeline {
  return {
    executors: pipeline.executors,
    tools: pipeline.tools,
    paths: pipeline.paths,
    close: () => pipeline.close(),
    async evaluate(call, signal) {
      const outcome = await pipeline.evaluate(call, signal);
      const record = current();
      if (record) {
        if (record.decision === null) {
          record.decision = outcome.decision;
          record.reason = outcome.reason;
        }
        if (outcome.decision === 'deny') record.refused = shorten(outcome.reason);
      }
      return outcome;
    },
    async invoke(outcome, signal) {
      const result = await pipeline.invoke(outcome, signal);
      const record = current();
      if (record) {
        record.ran = true;
        record.failure = runFailure(result);
      }
      return result;
    },
  };
}

/** A channel that counts cards against the call in play and queues them for an answer. */
function answeringSink(current: () => CallRecord | undefined, open: string[], texts: string[]) {
  const sink: ChannelSink = {
    sendText: (_chat, text) => {
      texts.push(text);
      return Promise.resolve();
    },
    sendCard: (_chat, card: ApprovalCard, approvalId) => {
      const record = current();
      if (approvalId !== null) {
        open.push(approvalId);
        if (record) {
          record.cards += 1;
          record.headline = card.headline;
          record.foretold = card.limits !== undefined;
        }
      }
      return Promise.resolve(approvalId === null ? null : { chatId, approvalId });
    },
    updateCard: () => Promise.resolve(),
  };
  return sink;
}

export interface ReplayOptions {
  /** Keep the fixture HOME for inspection (its path is returned). */
  readonly keepHome?: boolean;
  /** How every card is answered (default "once": the task is meant to complete). */
  readonly answer?: ApprovalAnswer;
}

/** Replays one task; the server must be free (tasks run one at a time). */
export async function replayTask(
  task: EverydayTask,
  server: ScriptedOpenAi,
  options: ReplayOptions = {},
): Promise<TaskResult & { home: string }> {
  const { home, env } = await buildFixtureHome();
  const records: CallRecord[] = task.calls.map((call) => ({
    call,
    decision: null,
    reason: '',
    cards: 0,
    headline: '',
    foretold: false,
    refused: null,
    ran: false,
    failure: null,
  }));
  let emitted = 0;
  const current = (): CallRecord | undefined => records[emitted - 1];
  server.play(() => {
    const call = task.calls[emitted];
    emitted += 1;
    return call === undefined ? null : { tool: call.tool, args: inHome(call.args, home) };
  });
  const config = parseConfig({ llm: { provider: 'openai', base_url: server.baseUrl } });
  const app = await createApp({
    config,
    env: { ...env, OPENAI_API_KEY: 'sk-scripted-everyday' },
    instrumentPipeline: (pipeline) => observedPipeline(pipeline, current),
  });
  const open: string[] = [];
  const texts: string[] = [];
  const sink = answeringSink(current, open, texts);
  try {
    await app.service.handleMessage({ channel: 'local', chatId, sender, text: task.ask }, sink);
    for (let id = open.shift(); id !== undefined; id = open.shift()) {
      await app.service.resolveApproval(
        { approvalId: id, presser: sender, answer: options.answer ?? 'once' },
        sink,
      );
    }
  } finally {
    await app.close();
    if (options.keepHome !== true) await rm(home, { recursive: true, force: true });
  }
  const answered = texts.at(-1) === closingAnswer;
  return {
    task,
    home,
    calls: records,
    answered,
    completed: answered && records.every((record) => record.ran),
  };
}
