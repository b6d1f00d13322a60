// Planner benchmark: the planner's own cost per step with the model answering instantly
// from an in-process stub. Each turn reads a small file five times (read-only: allowed
// without a card), then answers. Model time is measured and subtracted; the pipeline
// (validation, guard, judge, policy, audit line) and the executor are timed separately, so
// "planner only" is the loop, history, turn log and channel output. Runs in a throwaway
// HOME: it never touches the person's state. Target: <= 2 ms per step (median).
import { rm, writeFile } from 'node:fs/promises';
import { throwawayHome } from './throwaway-home.ts';
import { join } from 'node:path';
import { createApp } from '../app.ts';
import { defaultConfig } from '../config.ts';
import type { ChatResponse, LlmClient } from '../llm/client.ts';
import type { Pipeline } from '../pipeline/pipeline.ts';
import type { ChannelSink } from '../planner/chat-service.ts';
import { median, percentile, type BenchSection, verdict } from './types.ts';

const toolStepsPerTurn = 5;
const warmUpTurns = 10;
const measuredTurns = 100;
const concurrentChats = 50;
const targetMs = 2;

interface Clock {
  modelMs: number;
  pipelineMs: number;
}

/** A stub model: fs_read until the turn has enough tool results, then a text answer. */
function stubModel(clock: Clock): LlmClient {
  let id = 0;
  return {
    provider: 'openai',
    model: 'bench-stub',
    chat(request) {
      const start = performance.now();
      const lastUser = request.messages.findLastIndex((message) => message.role === 'user');
      const results = request.messages
        .slice(lastUser)
        .filter((message) => message.role === 'tool').length;
      id += 1;
      const response: ChatResponse =
        results < toolStepsPerTurn
          ? {
              text: '',
              toolCalls: [
                {
                  id: `bench_${String(id)}`,
                  name: 'fs_read',
                  argumentsText: '{"path":"~/bench.txt"}',
                },
              ],
            }
          : { text: 'done', toolCalls: [] };
      clock.modelMs += performance.now() - start;
      return Promise.resolve(response);
    },
  };
}

/** The same pipeline, with the time spent in it added to the clock. */
function timedPipeline(pipeline: Pipeline, clock: Clock): Pipeline {
  const timed = async <T>(work: Promise<T>, start: number): Promise<T> => {
    try {
      return await work;
    } finally {
      clock.pipelineMs += performance.now() - start;
    }
  };
  return {
    executors: pipeline.executors,
    tools: pipeline.tools,
    paths: pipeline.paths,
    close: () => pipeline.close(),
    evaluate: (call, signal) => timed(pipeline.evaluate(call, signal), performance.now()),
    invoke: (outcome, signal) => timed(pipeline.invoke(outcome, signal), performance.now()),
  };
}

const quietSink: ChannelSink = {
  sendText: () => Promise.resolve(),
  sendCard: () => Promise.resolve(null),
  updateCard: () => Promise.resolve(),
  typing: () => Promise.resolve(),
  step: () => Promise.resolve(),
};

const fmt = (ms: number): string => `${ms.toFixed(3)} ms`;

/** The planner section of `custode bench`. */
export async function benchPlanner(): Promise<BenchSection> {
  const { home, env } = await throwawayHome('custode-bench-planner-');
  await writeFile(join(home, 'bench.txt'), 'a small file the bench reads\n');
  const clock: Clock = { modelMs: 0, pipelineMs: 0 };
  const app = await createApp({
    config: defaultConfig(),
    env,
    client: stubModel(clock),
    instrumentPipeline: (pipeline) => timedPipeline(pipeline, clock),
  });
  const { service } = app;
  try {
    const turn = async (chatId: string): Promise<{ total: number; planner: number }> => {
      const before = { ...clock };
      const start = performance.now();
      await service.handleMessage(
        { channel: 'local', chatId, sender: 'local:bench', text: 'read the bench file five times' },
        quietSink,
      );
      const total = performance.now() - start - (clock.modelMs - before.modelMs);
      return {
        total: total / toolStepsPerTurn,
        planner: (total - (clock.pipelineMs - before.pipelineMs)) / toolStepsPerTurn,
      };
    };
    for (let i = 0; i < warmUpTurns; i += 1) await turn('warm-up');
    const sequential: { total: number; planner: number }[] = [];
    for (let i = 0; i < measuredTurns; i += 1) sequential.push(await turn(`chat-${String(i % 5)}`));

    const started = performance.now();
    const concurrent = await Promise.all(
      Array.from({ length: concurrentChats }, (_, i) => turn(`concurrent-${String(i)}`)),
    );
    const wall = performance.now() - started;
    await app.turnLog.flush();

    const perStep = median(sequential.map((s) => s.total));
    const plannerOnly = median(sequential.map((s) => s.planner));
    return {
      title: 'Planner overhead per step (stub model, real pipeline, fs_read executor)',
      lines: [
        `one chat, ${String(measuredTurns)} turns x ${String(toolStepsPerTurn)} steps: per step median ${fmt(perStep)}, p95 ${fmt(
          percentile(
            sequential.map((s) => s.total),
            95,
          ),
        )} (model time excluded)`,
        `  of which the planner alone (loop, history, turn log, channel output): median ${fmt(plannerOnly)}; pipeline + executor: ${fmt(perStep - plannerOnly)}`,
        `${String(concurrentChats)} concurrent chats x ${String(toolStepsPerTurn)} steps: wall ${fmt(wall)}, ${((concurrentChats * toolStepsPerTurn) / (wall / 1000)).toFixed(0)} steps/s (${fmt(wall / (concurrentChats * toolStepsPerTurn))} of wall per step); a turn's own step latency median ${fmt(median(concurrent.map((c) => c.total)))} (includes waiting on the other chats)`,
        `target: planner alone <= ${String(targetMs)} ms per step median: ${verdict(plannerOnly <= targetMs)}`,
      ],
    };
  } finally {
    await app.close();
    await rm(home, { recursive: true, force: true });
  }
}
