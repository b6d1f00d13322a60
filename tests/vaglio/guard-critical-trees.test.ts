// The trees whose loss leaves no working system or no home (Law 1), decided for a home that is
// NOT under /home (a second rule covers /home/<user>, so a home there hides a broken first
// rule) and for every spelling of the recursive flag. The commands are written here, not taken
// from the constitution's own lists, so a rule and its samples cannot vanish together.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardCall, type GuardResult } from '../../runtime/vaglio/guard.ts';
import { call, pipelineWith } from '../pipeline/pipeline-helpers.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';

beforeAll(async () => {
  await initShellParser();
});

function shell(command: string, cwd?: string): GuardResult {
  const args = cwd === undefined ? { command } : { command, cwd };
  return guardCall({ executor: 'shell_exec', args, commandArg: 'command', home });
}

const RECURSIVE_DELETE = 'dangerous shell: recursive delete of / or a home or system tree';
const PERMISSIONS = 'dangerous shell: permission change of / or (recursive) of a system tree';

describe('the home is a critical tree wherever it lives', () => {
  it.each([
    'rm -rf ~',
    'rm -rf ~/',
    'rm -rf $HOME',
    'rm -rf "${HOME}"',
    'rm -rf /data/ada',
    'rm -rf /data/ada/',
    'rm -rf ~/*',
    'rm -R ~',
    'rm -r ~',
    'rm --recursive ~',
    'rm -fR ~',
    'find ~ -delete',
    'find /data/ada -delete',
    'find $HOME -mindepth 1 -delete',
    'find ~ -exec rm -rf {} +',
    'mv ~ /tmp/x',
    'mv /data/ada /tmp/x',
    'mv -f $HOME /var/tmp/old-home',
    'rsync -a --delete empty/ ~',
    'cd / && rm -rf data/ada',
  ])('%s is a recursive delete of the home', (command) => {
    expect(reasonOf(shell(command))).toBe(RECURSIVE_DELETE);
  });

  it.each(['rm -rf *', 'rm -rf ./*', 'rm -Rf .'])(
    '%s run in the home (cwd ~) empties it',
    (command) => {
      expect(reasonOf(shell(command, '~'))).toBe(RECURSIVE_DELETE);
    },
  );

  it.each([
    'chmod -R 777 ~',
    'chmod -R 777 /data/ada',
    'chmod --recursive 000 $HOME',
    'chown -R nobody ~',
    'chgrp -R staff ~/',
  ])('%s is a recursive permission change of the home', (command) => {
    expect(reasonOf(shell(command))).toBe(PERMISSIONS);
  });

  it.each(['~', '/data/ada', '$HOME', '/data/ada/'])('fs_delete of %j is refused', (path) => {
    const result = guardCall({ executor: 'fs_delete', args: { path, recursive: true }, home });
    expect(reasonOf(result)).toBe('irrecoverable delete: / or a home or system tree');
  });

  it.each([
    'rm -rf ~/build',
    'rm -R ~/project/node_modules',
    'find ~/project -delete',
    "find ~ -name '*.tmp' -delete",
    'mv ~/draft.txt ~/final.txt',
    'chmod -R 755 ~/site',
    'chmod 700 ~',
    'rm -rf /data/ada-old/cache',
  ])('%s (inside the home, or not recursive) passes', (command) => {
    expect(shell(command)).toEqual({ blocked: false, signals: [] });
  });
});

describe('every directory holding the home goes with it', () => {
  // Two levels above the home, neither a system tree nor under /home: only the ancestor rule
  // can catch these.
  const deepHome = '/srv2/users/ada';
  const deep = (command: string): string => reasonOf(guardShell(command, deepHome));

  it.each([
    'rm -rf /srv2',
    'rm -rf /srv2/users',
    'rm -R /srv2/users/',
    'rm -rf /srv2/users/*',
    'rm -rf //srv2/./users',
    'rm -rf ~/..',
    'rm -rf ~/../..',
    'cd /srv2 && rm -rf users',
    'find /srv2 -delete',
    'find /srv2/users -mindepth 1 -delete',
    'echo /srv2/* | xargs rm -rf',
    'shred -u /srv2/users/*',
    'mv /srv2/users /var/tmp/users',
    'mv /srv2 /srv3',
    'rsync -a --delete empty/ /srv2/users',
  ])('%s deletes the home with its parent', (command) => {
    expect(deep(command)).toBe(RECURSIVE_DELETE);
  });

  it.each([
    'chmod -R 777 /srv2',
    'chmod -R 000 /srv2/users',
    'chmod --recursive go-rwx /srv2/users/*',
    'chown -R nobody /srv2/users',
    'chgrp -R staff /srv2',
  ])('%s changes the permissions of the home with its parent', (command) => {
    expect(deep(command)).toBe(PERMISSIONS);
  });

  it.each([
    'rm -rf /srv20',
    'rm -rf /srv2/users-old',
    'rm -rf /srv2/users/ada/build',
    'find /srv2/users/ada/project -delete',
    'chmod -R 755 /srv2/users/ada/site',
    'mv /srv2/cache /srv2/cache.old',
  ])('%s (beside or inside the home, not above it) passes', (command) => {
    expect(guardShell(command, deepHome)).toEqual({ blocked: false, signals: [] });
  });
});

describe('every spelling of a recursive delete of /', () => {
  it.each([
    'rm -R /',
    'rm -Rf /',
    'rm -fR /',
    'rm -R -f /',
    'rm -rf /',
    'rm -r -f /',
    'rm --recursive --force /',
    'rm --recursive /',
    'rm --no-preserve-root -R /',
    'sudo rm -R --force /',
    'sudo rm -Rf /',
    'sudo -u root rm -R /',
    'rm -Rf /*',
    'rm -R /usr',
    'rm -Rv /etc',
    'rm -vR /var',
    'rm -R -- /',
  ])('%s is blocked', (command) => {
    expect(reasonOf(shell(command))).toBe(RECURSIVE_DELETE);
  });

  it.each(['rm -R ./build', 'rm -Rf /tmp/scratch', 'rm -R ~/old'])('%s passes', (command) => {
    expect(shell(command).blocked).toBe(false);
  });
});

describe('the real pipeline denies them, under a test HOME outside /home', () => {
  it.each([
    'rm -rf ~',
    'rm -R ~',
    'sudo rm -R --force /',
    'find ~ -delete',
    'chmod -R 777 ~',
    'mv ~ /var/tmp/x',
  ])('%s is denied by the guard', async (command) => {
    const pipeline = await pipelineWith();
    try {
      expect(process.env.HOME?.startsWith('/home/')).toBe(false);
      const outcome = await pipeline.evaluate(call('shell_exec', { command }, 'tidy up'));
      expect(outcome).toMatchObject({ decision: 'deny', stage: 'guard' });
      expect(outcome.reason).toMatch(/^dangerous shell: /);
    } finally {
      pipeline.close();
    }
  });
});
