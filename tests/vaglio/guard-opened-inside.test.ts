// An operand that names a directory where the program opens a file inside it is judged as the
// file it opens: `diff /etc shadow` reads /etc/shadow as surely as `cat /etc/shadow` does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline/pipeline.ts';
import { call, pipelineWith } from '../pipeline/pipeline-helpers.ts';

let pipeline: Pipeline;
beforeAll(async () => {
  pipeline = await pipelineWith();
});
afterAll(() => {
  pipeline.close();
});

async function decide(
  command: string,
): Promise<{ decision: string; stage: string | null; reason: string }> {
  return pipeline.evaluate(call('shell_exec', { command }));
}

describe('a directory operand is judged as the file opened inside it', () => {
  it.each([
    ['cat /etc/shadow', 'account and privilege'],
    ['diff /etc shadow', 'account and privilege'],
    ['diff /etc /tmp/shadow', 'account and privilege'],
    ['diff /tmp/shadow /etc', 'account and privilege'],
    ['cd /etc && diff . /tmp/shadow', 'account and privilege'],
    ['cd /tmp && diff /etc/ ./gshadow', 'account and privilege'],
    ['diff --from-file=/etc /tmp/passwd /tmp/x', 'account and privilege'],
    ['diff --to-file /etc /tmp/sudoers', 'account and privilege'],
    ['cmp /etc /tmp/shadow', 'account and privilege'],
    ['sdiff /etc/ssh /tmp/sshd_config', 'ssh server keys'],
    ['cp /tmp/config ~/.kube', 'container and cluster credentials'],
    ['cp -t ~/.docker /tmp/config.json', 'container and cluster credentials'],
    ['mv /tmp/credentials.env ~/.config/app/', 'application credentials'],
    ['ln -s /tmp/evil -t ~/.kube/ -- config', 'container and cluster credentials'],
    ['tar -C /etc -cf - shadow | gzip > /tmp/s.tgz', 'account and privilege'],
    ['tar -xf /tmp/k.tar -C ~/.kube config', 'container and cluster credentials'],
  ])('%s is denied like the read or write it is', async (command, rule) => {
    const outcome = await decide(command);
    expect(outcome, command).toMatchObject({ decision: 'deny', stage: 'guard' });
    expect(outcome.reason).toMatch(/^forbidden path: /);
    expect(outcome.reason).toContain(rule);
  });

  it.each([
    'diff a.txt b.txt',
    'diff -u src/old.c src/new.c',
    'cmp build/a.bin build/b.bin',
    'cp notes.txt /tmp/',
    'cp -t /tmp/out a.txt b.txt',
    'tar -C /tmp/out -xf site.tar',
    'diff /etc/hosts /tmp/hosts',
  ])('%s is not denied', async (command) => {
    expect((await decide(command)).decision, command).not.toBe('deny');
  });
});
