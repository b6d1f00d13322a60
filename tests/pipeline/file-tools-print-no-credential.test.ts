// What fs_read and fs_grep return without a card holds no credential, whatever the file held
// when the call was decided: a token past the part of a large log the decision read, or a file
// that became a key store between the decision and the run. The decision's look at the text is
// a courtesy (it asks first); what reaches the model is cut like a shell command's output.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { makeTempDir } from '../executors/make-context.ts';
import { call, pipelineWith } from './pipeline-helpers.ts';

const token = `ghp_${'PLANTEDtoken0123456789abcdefghijklmn'.slice(0, 36)}`;
const intent = 'look at my logs';
let pipeline: Pipeline;
let logs: string;

beforeAll(async () => {
  logs = await makeTempDir('logs-');
  pipeline = await pipelineWith({ roots: { write: ['~'] } });
});
afterAll(() => pipeline.close());

async function decideThenRun(
  executor: string,
  args: Record<string, unknown>,
  between: () => Promise<void> = async () => undefined,
): Promise<string> {
  const outcome = await pipeline.evaluate(call(executor, args, intent));
  expect(outcome.decision, outcome.reason).toBe('allow');
  await between();
  const ran = await pipeline.invoke(outcome, new AbortController().signal);
  expect(ran.ok, JSON.stringify(ran)).toBe(true);
  return JSON.stringify(ran.ok ? ran.result : null);
}

describe('file tools without a card', () => {
  it('fs_read cuts a token that sits past what the decision reads of a log (16 MiB)', async () => {
    const log = join(logs, 'build.log');
    await writeFile(
      log,
      `${'an ordinary line of build output\n'.repeat(530_000)}push with ${token}\n`,
    );
    const shown = await decideThenRun('fs_read', { path: log, offset: 530_000 });
    expect(shown).toContain('push with');
    expect(shown).not.toContain(token);
  });

  it('fs_read shows none of a private key whose first line it skips', async () => {
    const log = join(logs, 'pasted.log');
    const body = Array.from(
      { length: 6 },
      (_, n) =>
        `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW${String(n)}`,
    );
    await writeFile(
      log,
      `${'an ordinary line\n'.repeat(1_000_000)}-----BEGIN OPENSSH PRIVATE KEY-----\n${body.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`,
    );
    const shown = await decideThenRun('fs_read', { path: log, offset: 1_000_002 });
    expect(shown).not.toContain(body[1]);
  });

  it('fs_read cuts a credential written into the file after the decision', async () => {
    const notes = join(logs, 'notes.txt');
    await writeFile(notes, 'nothing secret yet\n');
    const shown = await decideThenRun('fs_read', { path: notes }, () =>
      writeFile(
        notes,
        `aws_secret_access_key = ${'wJalrXUtnFEMI/K7MDENG/bPxRfiCYPLANTEDKEY'}\n${token}\n`,
      ),
    );
    expect(shown).not.toContain(token);
    expect(shown).not.toContain('PLANTEDKEY');
  });

  it('fs_grep shows no credential from a tree, nor from the one file it was asked to search', async () => {
    const dir = await makeTempDir('grep-');
    const log = join(dir, 'deploy.log');
    await writeFile(log, 'deploy started\n');
    const inFile = await decideThenRun('fs_grep', { pattern: 'deploy', path: log }, () =>
      writeFile(log, `deploy started\ndeploy token ${token}\n`),
    );
    expect(inFile).toContain('deploy started');
    expect(inFile).not.toContain(token);
    await writeFile(log, 'deploy started\n');
    const shown = await decideThenRun('fs_grep', { pattern: 'deploy', path: dir }, () =>
      writeFile(log, `deploy started\ndeploy token ${token}\n`),
    );
    expect(shown).not.toContain(token);
  });

  it('a dotenv file still asks first: a person then sees it as it is', async () => {
    const env = join(logs, '.env');
    await writeFile(env, `GITHUB_TOKEN=${token}\n`);
    const outcome = await pipeline.evaluate(call('fs_read', { path: env }, intent));
    expect(outcome.decision).toBe('ask');
  });
});

describe('a large file that holds a credential', () => {
  it('asks before fs_read or cat reads it, as a small one does (an agent behind the hook reads it whole)', async () => {
    const log = join(logs, 'server.log');
    await writeFile(log, `${'GET /health 200\n'.repeat(200_000)}Authorization: token ${token}\n`);
    for (const [executor, args] of [
      ['fs_read', { path: log }],
      ['shell_exec', { command: `cat ${log}` }],
    ] as const) {
      const outcome = await pipeline.evaluate(call(executor, args, intent));
      expect(outcome.decision, `${executor}: ${outcome.reason}`).toBe('ask');
    }
  });
});

describe('web_fetch of what the model already holds', () => {
  it.todo(
    'asks for a token split over two query parameters (https://example.com/?a=ghp_<first 20>&b=<rest>) or carried in a host name (https://ghp-<token>.example.com/: the DNS lookup alone sends it): both get no card today; the class is two-call exfiltration (s5 redteam2 open item 1)',
  );
});
