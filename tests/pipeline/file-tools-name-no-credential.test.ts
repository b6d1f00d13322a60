// A file's name can hold a credential too: wget and browsers save `report.pdf?access_token=…`
// under the URL's whole last segment. The shell's listings (`ls`, `find`) are cut like any output;
// the file tools that name files without a card (fs_list, fs_glob, fs_grep's `path:line:`) cut
// the names they return the same way, and still name every ordinary file.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const token = `ghp_${'PLANTEDnameToken0123456789abcdefghij'.slice(0, 36)}`;
let pipeline: Pipeline;
let downloads: string;

beforeAll(async () => {
  downloads = await makeTempDir('downloads-');
  await writeFile(join(downloads, `report.pdf?access_token=${token}`), 'quarterly figures\n');
  await writeFile(join(downloads, 'notes.txt'), 'quarterly notes\n');
  pipeline = await pipelineWith({ roots: { write: ['~'] } });
});
afterAll(() => pipeline.close());

async function uncarded(executor: string, args: Record<string, unknown>): Promise<string> {
  const outcome = await pipeline.evaluate(call(executor, args, 'what did I download'));
  expect(outcome.decision, outcome.reason).toBe('allow');
  const ran = await pipeline.invoke(outcome, new AbortController().signal);
  expect(ran.ok, JSON.stringify(ran)).toBe(true);
  return JSON.stringify(ran.ok ? ran.result : null);
}

describe('file tools without a card name no credential', () => {
  it.each([
    ['fs_list', { path: '' }],
    ['fs_glob', { pattern: '**/*', path: '' }],
    ['fs_grep', { pattern: 'quarterly', path: '' }],
  ] as const)('%s', async (executor, args) => {
    const shown = await uncarded(executor, { ...args, path: downloads });
    expect(shown).not.toContain(token);
    expect(shown).toContain('notes.txt');
    expect(shown).toContain('report.pdf');
  });
});
