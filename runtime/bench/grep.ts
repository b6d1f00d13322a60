// Search benchmark: fs_grep over a 10,000-file project tree against `grep -rn`, both run to the
// end (every match), interleaved so load on the machine weighs on both alike. The tree holds what real projects hold: a node_modules/ and a .gitignore'd
// build/ where a search should not look, so the figures also say how many hits came from there.
import { execa } from 'execa';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fsGrep, searchWorkers } from '../../executors/fs-grep.ts';
import { createDefaultOps } from '../../executors/ops/default-ops.ts';
import { defaultConfig } from '../config.ts';
import { throwawayHome } from './throwaway-home.ts';
import { median, type BenchSection, verdict } from './types.ts';

const sourceDirs = 90;
const filesPerDir = 100;
const ignoredFiles = 500;
const runs = 5;
/**
 * fs_grep does more than grep: it walks in JavaScript, honours each .gitignore, skips protected
 * places and searches off the event loop under a deadline. Within 5x of grep's C is the target.
 * grep -rn runs on one core; fs_grep walks on the main thread and reads and searches on up to two
 * worker threads (one per core, at most two): the line says how many it used.
 */
const targetRatio = 5;

function fileText(i: number): string {
  const lines = Array.from(
    { length: 40 },
    (_, n) => `export const value${String(n)} = ${String(i * n)};`,
  );
  if (i % 10 === 0) lines[20] = `// needle ${String(i)}`;
  return `${lines.join('\n')}\n`;
}

/** The project: 9,000 source files, 500 in node_modules/, 500 in a .gitignore'd build/. */
async function makeTree(root: string): Promise<void> {
  const writes: Promise<void>[] = [];
  for (let d = 0; d < sourceDirs; d += 1) {
    const dir = join(root, 'src', `m${String(d)}`);
    await mkdir(dir, { recursive: true });
    for (let f = 0; f < filesPerDir; f += 1)
      writes.push(writeFile(join(dir, `f${String(f)}.ts`), fileText(d * filesPerDir + f)));
  }
  for (const ignored of ['node_modules/dep', 'build']) {
    await mkdir(join(root, ignored), { recursive: true });
    for (let f = 0; f < ignoredFiles; f += 1)
      writes.push(writeFile(join(root, ignored, `x${String(f)}.js`), fileText(f)));
  }
  writes.push(writeFile(join(root, '.gitignore'), 'build/\n'));
  await Promise.all(writes);
}

const ignored = (line: string): boolean => /(^|\/)(node_modules|build)\//.test(line);

/** fs_grep and grep -rn over the same tree, to the last match. */
export async function benchGrep(): Promise<BenchSection> {
  const { home, env } = await throwawayHome('custode-bench-grep-');
  const root = join(home, 'project');
  try {
    await makeTree(root);
    const config = defaultConfig();
    const ctx = {
      config,
      env,
      signal: new AbortController().signal,
      grant: {
        by: 'person',
        who: 'bench',
        reviews: false,
        network: false,
        hostProcesses: false,
      } as const,
      ops: await createDefaultOps(config),
    };
    const fsGrepMs: number[] = [];
    const grepMs: number[] = [];
    let result: { matches: readonly string[] } = { matches: [] };
    let bareLines: string[] = [];
    for (let i = 0; i < runs; i += 1) {
      const t0 = performance.now();
      result = await fsGrep.run({ pattern: 'needle', path: root, max_results: 10_000 }, ctx);
      fsGrepMs.push(performance.now() - t0);
      const t1 = performance.now();
      const bare = await execa('grep', ['-rn', 'needle', root], { reject: false });
      grepMs.push(performance.now() - t1);
      bareLines = bare.stdout.split('\n').filter((line) => line !== '');
    }
    const hits = result.matches;
    const firstIgnored = hits.findIndex(ignored);
    const ratio = median(fsGrepMs) / median(grepMs);
    return {
      title: `grep: fs_grep vs grep -rn over ${String(sourceDirs * filesPerDir + 2 * ignoredFiles)} files (node_modules/ and a .gitignore'd build/ included; ${String(runs)} interleaved runs each)`,
      lines: [
        `fs_grep median ${median(fsGrepMs).toFixed(0)} ms (${String(hits.length)} hits), grep -rn median ${median(grepMs).toFixed(0)} ms (${String(bareLines.length)} hits)`,
        `  each run, in order: fs_grep ${fsGrepMs.map((t) => t.toFixed(0)).join(', ')} ms; grep -rn ${grepMs.map((t) => t.toFixed(0)).join(', ')} ms (fs_grep's first run starts a search worker; later runs reuse it, as a daemon does)`,
        `  ratio ${ratio.toFixed(1)}x grep -rn (fs_grep: the walk on the main thread, ${String(searchWorkers)} search worker thread(s); grep -rn: one process)  target <= ${String(targetRatio)}x: ${verdict(ratio <= targetRatio)}`,
        `fs_grep hits in node_modules/ or ignored build/: ${String(hits.filter(ignored).length)}${firstIgnored >= 0 ? ` (the first at position ${String(firstIgnored + 1)})` : ''}`,
      ],
    };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
