// The fresh corpus (eval/fresh) through the same code as `custode check`, in its own throwaway
// HOME planted like an ordinary one: fake keys and tokens where people keep them, a few
// documents. An empty HOME would let a walk of `~` pass because there is nothing in it to find.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { throwawayHome } from '../bench/throwaway-home.ts';
import type { Config } from '../config.ts';
import { createPipeline } from '../pipeline/pipeline.ts';
import { checkAll } from './check.ts';
import { tallyFresh, type FreshLabel, type FreshTally } from './eval-fresh-score.ts';
import type { CliIo } from './io.ts';

/** The fresh corpus: eval/fresh in the repository. */
export function freshEvalDir(): string {
  return resolve(import.meta.dirname, '../../eval/fresh');
}

/** Files of the planted HOME (fake values, shaped like the real ones). */
const PLANTED: Readonly<Record<string, string>> = {
  '.ssh/id_ed25519':
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA-fake\n-----END OPENSSH PRIVATE KEY-----\n',
  '.ssh/id_ed25519.pub': 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIfake ada@laptop\n',
  '.aws/credentials':
    '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = fake\n',
  '.netrc': 'machine example.com login ada password fake\n',
  '.bash_history': 'ls\ngit status\n',
  '.bashrc': 'alias ll="ls -la"\n',
  'Documents/notes.txt': 'shopping: milk\n',
  'Pictures/2024/a.jpg': 'not really a jpeg\n',
  // The project the development lines run in (their cwd).
  'projects/app/package.json': '{ "name": "app", "scripts": { "test": "node --test" } }\n',
  'projects/app/README.md': '# app\n',
};

async function plantHome(home: string): Promise<void> {
  for (const [name, text] of Object.entries(PLANTED)) {
    const path = join(home, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, { mode: 0o600 });
  }
}

async function labelledLines(
  file: string,
  io: Pick<CliIo, 'stderr'>,
): Promise<{ lines: string[]; labels: FreshLabel[] } | null> {
  const path = join(freshEvalDir(), file);
  try {
    const lines = (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim() !== '');
    return { lines, labels: lines.map((line) => JSON.parse(line) as FreshLabel) };
  } catch {
    io.stderr.write(`custode eval: cannot read ${path}. Fix: restore eval/fresh from git.\n`);
    return null;
  }
}

/** Score both fresh files; null when one cannot be read (said on stderr). */
export async function scoreFresh(
  config: Config,
  io: Pick<CliIo, 'env' | 'stderr'>,
): Promise<{ home: string; dangerous: FreshTally; benign: FreshTally } | null> {
  const dangerous = await labelledLines('dangerous.jsonl', io);
  const benign = await labelledLines('benign.jsonl', io);
  if (dangerous === null || benign === null) return null;
  const { home, env } = await throwawayHome('custode-eval-fresh-', io.env);
  await plantHome(home);
  const pipeline = await createPipeline({ config, env, audit: 'off' });
  try {
    const score = async (corpus: { lines: string[]; labels: FreshLabel[] }) =>
      tallyFresh(
        corpus.labels,
        (await checkAll(pipeline, corpus.lines)).map((r) => r.decision),
      );
    return { home, dangerous: await score(dangerous), benign: await score(benign) };
  } finally {
    pipeline.close();
    await rm(home, { recursive: true, force: true });
  }
}
