// Judge benchmark: what the LLM judge adds beyond the model's own time (a local stub model
// that answers after a fixed delay, through the real OpenAI SDK), consensus wall time against
// the slowest judge, and how many eval-corpus calls reach the judge at all once the guard and
// the rule judge have run. The stub always approves: these figures say nothing about quality.
import { readFile, rm } from 'node:fs/promises';
import { throwawayHome } from './throwaway-home.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import { LAWS } from '../../constitution/laws.ts';
import { parseConfig, type ConfigInput } from '../config.ts';
import { createPipeline } from '../pipeline/pipeline.ts';
import type { JudgeInput } from '../vaglio/judge.ts';
import { judgeClientFor } from '../vaglio/judge-clients.ts';
import { buildJudgeMessages, buildJudgeSystemPrompt } from '../vaglio/judge-payload.ts';
import { parseJudgeAnswer } from '../vaglio/parse-judge-answer.ts';
import { createLlmPanel, type LlmPanel } from '../vaglio/panel.ts';
import { median, percentile, type BenchSection } from './types.ts';

interface StubModel {
  readonly url: string;
  /** Server-side milliseconds per answered request (body read to response sent), by model. */
  readonly served: { model: string; ms: number }[];
  close(): Promise<void>;
}

/** An OpenAI-wire stub: each model name answers an approving verdict after its delay. */
async function startStubModel(delays: ReadonlyMap<string, number>): Promise<StubModel> {
  const served: { model: string; ms: number }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const start = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string };
      setTimeout(
        () => {
          const content = JSON.stringify({ score: 0.9, confidence: 0.9, reasoning: 'stub model' });
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({
              id: 'chatcmpl-stub',
              object: 'chat.completion',
              created: Math.floor(Date.now() / 1000),
              model: body.model,
              choices: [
                {
                  index: 0,
                  message: { role: 'assistant', content, refusal: null },
                  finish_reason: 'stop',
                  logprobs: null,
                },
              ],
            }),
          );
          served.push({ model: body.model, ms: performance.now() - start });
        },
        delays.get(body.model) ?? 0,
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}/v1`,
    served,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

const input: JudgeInput = {
  intent: 'write a note saying hello to notes/today.md',
  executor: 'fs_write',
  args: { path: 'notes/today.md', content: 'hello' },
  context: { mode: 'multistep', step: 1, critical: true },
  availableTools: [{ name: 'fs_write', description: 'Write a file.' }],
};

function panelOver(env: NodeJS.ProcessEnv, vaglio: NonNullable<ConfigInput['vaglio']>): LlmPanel {
  const config = parseConfig({ vaglio });
  const panel = createLlmPanel(config, env, judgeClientFor(config, env), {
    logger: pino({ level: 'silent' }),
  });
  if (panel === null) throw new Error('bench: the judge panel is not enabled');
  return panel;
}

function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}

/** Run `runs` evaluations after a warm-up; wall time and the stub's server time of each. */
async function timeRuns(
  panel: LlmPanel,
  stub: StubModel,
  runs: number,
): Promise<{ wall: number[]; served: number[] }> {
  for (let i = 0; i < 5; i += 1) await panel.evaluate(input);
  const wall: number[] = [];
  const served: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    stub.served.length = 0;
    const start = performance.now();
    const result = await panel.evaluate(input);
    wall.push(performance.now() - start);
    if (!result.approved)
      throw new Error(`bench: the stub judge did not approve (${result.reason})`);
    // The panel waits for its slowest judge; its server time is the model's share.
    served.push(Math.max(...stub.served.map((entry) => entry.ms)));
  }
  return { wall, served };
}

/** The same request with bare fetch: the loopback HTTP share of the judge's overhead. */
async function bareFetchOverhead(stub: StubModel, runs: number): Promise<number[]> {
  const body = JSON.stringify({
    model: 'd20',
    messages: [{ role: 'user', content: JSON.stringify(input) }],
  });
  const overhead: number[] = [];
  for (let i = 0; i < runs + 5; i += 1) {
    stub.served.length = 0;
    const start = performance.now();
    const response = await fetch(`${stub.url}/chat/completions`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    await response.json();
    if (i >= 5) overhead.push(performance.now() - start - (stub.served[0]?.ms ?? 0));
  }
  return overhead;
}

/** The judge's own code alone (payload and prompt building, answer parsing), in µs. */
function ownCodeMicros(runs: number): number[] {
  const prompt = buildJudgeSystemPrompt(LAWS, []);
  const answer = JSON.stringify({ score: 0.9, confidence: 0.9, reasoning: 'stub model' });
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    JSON.stringify(buildJudgeMessages(prompt, input));
    if (!parseJudgeAnswer(answer).ok) throw new Error('bench: the stub answer does not parse');
    times.push((performance.now() - start) * 1000);
  }
  return times;
}

async function singleJudgeLines(stub: StubModel, env: NodeJS.ProcessEnv): Promise<string[]> {
  const panel = panelOver(env, {
    judges: [{ name: 'd20', provider: 'openai', model: 'd20', base_url: stub.url }],
  });
  const { wall, served } = await timeRuns(panel, stub, 100);
  const overhead = wall.map((total, i) => total - (served[i] ?? 0));
  const bare = await bareFetchOverhead(stub, 100);
  return [
    `one judge, stub model answering after 20 ms, 100 runs: wall median ${ms(median(wall))}`,
    `  judge overhead beyond the model's own time: median ${ms(median(overhead))}, p95 ${ms(percentile(overhead, 95))}` +
      ' (payload, SDK, loopback HTTP, parsing)',
    `  of which loopback HTTP (bare fetch, same stub): median ${ms(median(bare))}; ` +
      `the judge's own code (payload + parse): median ${median(ownCodeMicros(2000)).toFixed(1)} µs`,
  ];
}

async function consensusLines(stub: StubModel, env: NodeJS.ProcessEnv): Promise<string[]> {
  const judges = ['d10', 'd20', 'd40'].map((name) => ({
    name,
    provider: 'openai' as const,
    model: name,
    base_url: stub.url,
  }));
  const parallel = await timeRuns(
    panelOver(env, { mode: 'consensus', strategy: 'weighted_average', judges }),
    stub,
    50,
  );
  const sequence = await timeRuns(panelOver(env, { mode: 'sequence', judges }), stub, 50);
  const beyond = parallel.wall.map((total, i) => total - (parallel.served[i] ?? 0));
  return [
    `consensus of 3 judges (10/20/40 ms), 50 runs: wall median ${ms(median(parallel.wall))}, slowest judge's model time median ${ms(median(parallel.served))}`,
    `  beyond the slowest judge: median ${ms(median(beyond))}, p95 ${ms(percentile(beyond, 95))}; ` +
      `the same 3 in sequence: wall median ${ms(median(sequence.wall))}`,
  ];
}

/** The eval corpora through the whole pipeline with the stub judge: how many calls reach it. */
async function corpusLines(
  stub: StubModel,
  env: NodeJS.ProcessEnv,
  dir: string,
): Promise<string[]> {
  const config = parseConfig({
    vaglio: { judges: [{ name: 'd0', provider: 'openai', model: 'd0', base_url: stub.url }] },
  });
  const pipeline = await createPipeline({
    config,
    env,
    audit: 'off',
    logger: pino({ level: 'silent' }),
  });
  const lines: string[] = [];
  try {
    for (const file of ['redcode-bash.jsonl', 'benign-shell.jsonl']) {
      let text: string;
      try {
        text = await readFile(join(dir, file), 'utf8');
      } catch {
        return [`eval corpora: not found in ${dir} (skipped)`];
      }
      const calls = text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as { executor: string; args: unknown; intent: string });
      stub.served.length = 0;
      for (const call of calls) await pipeline.evaluate({ ...call, context: { mode: 'check' } });
      lines.push(
        `${file}: ${calls.length} calls, ${stub.served.length} reached the LLM judge (the rest were decided before it)`,
      );
    }
  } finally {
    pipeline.close();
  }
  return lines;
}

/** `custode bench judge`: judge overhead, consensus wall time, and judge reach on the corpora. */
export async function benchJudge(
  dir = resolve(import.meta.dirname, '../../../shared/eval'),
): Promise<BenchSection> {
  const stub = await startStubModel(
    new Map([
      ['d0', 0],
      ['d10', 10],
      ['d20', 20],
      ['d40', 40],
    ]),
  );
  const { env } = await throwawayHome('custode-bench-judge-', process.env, {
    OPENAI_API_KEY: 'bench',
  });
  try {
    return {
      title: 'LLM judge (stub model through the real OpenAI SDK; no quality claim)',
      lines: [
        ...(await singleJudgeLines(stub, env)),
        ...(await consensusLines(stub, env)),
        ...(await corpusLines(stub, env, dir)),
      ],
    };
  } finally {
    await stub.close();
    await rm(env.HOME ?? '', { recursive: true, force: true });
  }
}
