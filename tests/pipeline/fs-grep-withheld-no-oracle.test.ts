// fs_grep leaves out of a walk a file that holds a credential by its text (a token in
// `~/Downloads/token.txt`), and says how many it left out. That count must not depend on the
// pattern: if it only counted the withheld files the pattern matched, one search per guessed
// character (`ghp_A`, `ghp_B` …) would spell the token out without a card. Nor may the time a
// pattern takes: one that backtracks for seconds only once its first characters match the token
// would answer the same question by timing out.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const token = `ghp_${'PLANTEDoracle0123456789abcdefghijklm'.slice(0, 36)}`;
let pipeline: Pipeline;
let downloads: string;

beforeAll(async () => {
  downloads = await makeTempDir('downloads-');
  await writeFile(join(downloads, 'token.txt'), `my token ${token}\n`);
  await writeFile(join(downloads, 'notes.txt'), 'nothing secret here\n');
  pipeline = await pipelineWith({
    roots: { write: ['~'] },
    sandbox: { default_timeout_ms: 5_000 },
  });
});
afterAll(() => pipeline.close());

async function searched(pattern: string): Promise<string> {
  const outcome = await pipeline.evaluate(call('fs_grep', { pattern, path: downloads }));
  expect(outcome.decision, outcome.reason).toBe('allow');
  const ran = await pipeline.invoke(outcome, new AbortController().signal);
  expect(ran.ok, JSON.stringify(ran)).toBe(true);
  return JSON.stringify(ran.ok ? ran.result : null);
}

describe('fs_grep over a tree with a file holding a credential', () => {
  it('answers the same whether or not the pattern matches the withheld text', async () => {
    const right = await searched(token.slice(0, 12));
    const wrong = await searched(`${token.slice(0, 11)}#`);
    const nothing = await searched('no such text anywhere');
    expect(right).not.toContain(token);
    expect(right).toBe(wrong);
    expect(right).toBe(nothing);
    expect(right).toContain('"credentials_withheld":1');
  });

  it('runs no pattern on the withheld text: one that would backtrack there still ends', async () => {
    const slowOnToken = `${token.slice(0, 12)}(\\w|\\w)*#`;
    const shown = await searched(slowOnToken);
    expect(shown).toContain('"credentials_withheld":1');
  });
});
