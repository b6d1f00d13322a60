// The judge's own system prompt: the constitution's laws and the person's TELOS.md goals,
// read from the config dir, weights renormalised; and it is read on the wire, not assumed.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LAWS } from '../../constitution/laws.ts';
import { parseTelos, renderTelos } from '../../constitution/telos.ts';
import { configDir } from '../../runtime/paths.ts';
import { telosPath } from '../../runtime/vaglio/telos-file.ts';
import {
  buildPanel,
  judgeEnv,
  judgeMessages,
  openAiJudge,
  sampleInput,
  verdictReply,
} from '../helpers/judge-panel.ts';
import { startOpenAiServer, type ScriptedServer } from '../helpers/openai-server.ts';

describe('parseTelos', () => {
  it('reads list items, renormalises weights to sum to 1, ignores prose and zero weights', () => {
    const goals = parseTelos(
      [
        '# My goals',
        'Some prose.',
        '- ship the thesis (weight 3)',
        '* keep my machine tidy',
        '- nothing (weight 0)',
        '+ learn Rust (weight: 4)',
      ].join('\n'),
    );
    expect(goals).toEqual([
      { text: 'ship the thesis', weight: 3 / 8 },
      { text: 'keep my machine tidy', weight: 1 / 8 },
      { text: 'learn Rust', weight: 4 / 8 },
    ]);
    expect(goals.reduce((sum, goal) => sum + goal.weight, 0)).toBeCloseTo(1, 12);
    expect(renderTelos(goals)).toBe(
      '- (0.50) learn Rust\n- (0.38) ship the thesis\n- (0.13) keep my machine tidy',
    );
  });

  it('gives no goals for an empty or goal-less file', () => {
    expect(parseTelos('')).toEqual([]);
    expect(parseTelos('# just a heading\n\nprose')).toEqual([]);
  });
});

describe('the judge system prompt on the wire', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(async () => {
    await rm(telosPath(judgeEnv()), { force: true });
    server.requests.length = 0;
  });

  it('holds the laws and the weighted goals from $XDG_CONFIG_HOME/custode/TELOS.md', async () => {
    await mkdir(configDir(judgeEnv()), { recursive: true });
    await writeFile(
      telosPath(judgeEnv()),
      '- finish the book (weight 1)\n- protect family photos (weight 3)\n',
    );
    server.script(verdictReply(0.9, 0.9));
    const { panel } = buildPanel({ judges: [openAiJudge(server, 'solo')] });
    await panel.evaluate(sampleInput());
    const system = judgeMessages(
      server.requests[0] ?? { method: '', path: '', headers: {}, body: null },
    )[0];
    expect(system?.role).toBe('system');
    for (const law of LAWS)
      expect(system?.content).toContain(`- Law ${law.id}, ${law.name}: ${law.why}`);
    expect(system?.content).toContain('- Law 1, no irrecoverable state: ');
    expect(system?.content).toContain('- (0.75) protect family photos\n- (0.25) finish the book');
  });

  it('says there are no goals when TELOS.md is missing', async () => {
    server.script(verdictReply(0.9, 0.9));
    const { panel } = buildPanel({ judges: [openAiJudge(server, 'solo')] });
    await panel.evaluate(sampleInput());
    const system = judgeMessages(
      server.requests[0] ?? { method: '', path: '', headers: {}, body: null },
    )[0];
    expect(system?.content).toContain('The person has stated no goals beyond the task.');
  });
});
