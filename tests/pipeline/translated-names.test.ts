// A `$"…"` word is a locale translation: bash prints the string unless a message catalogue
// (TEXTDOMAIN) replaces it with something else, so such a word never matches an allowing rule,
// whatever it says; the same line written plainly runs without a card.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

let pipeline: Pipeline;
beforeAll(async () => {
  pipeline = await pipelineWith();
});
afterAll(() => pipeline.close());

async function decisionOf(command: string): Promise<string> {
  const outcome = await pipeline.evaluate(call('shell_exec', { command }, 'list my files'));
  return outcome.decision;
}

describe('a locale-translated word never runs without a card', () => {
  it.each([
    ['$"ls" -la', 'ls -la'],
    ['$"pwd"', 'pwd'],
    ['echo $"hello"', 'echo hello'],
    ['ls $"-la"', 'ls -la'],
    ['$"date"', 'date'],
  ])('%s is asked where %s is not', async (translated, plain) => {
    expect(await decisionOf(plain)).toBe('allow');
    expect(await decisionOf(translated)).toBe('ask');
  });
});
