// Every redirect spelling that opens a file for writing is a write to that file: into a system
// tree it is blocked, onto a disk it is blocked, and a duplicated descriptor (>&2) is no file.
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../../runtime/shell/parse.ts';
import { guardShell, reasonOf } from './guard-helpers.ts';

const home = '/data/ada';

beforeAll(async () => {
  await initShellParser();
});

function shellReason(command: string): string {
  return reasonOf(guardShell(command, home));
}

const SPELLINGS = ['>', '>>', '>|', '&>', '&>>', '>&', '1>', '2>', '2>>', '1>&'];

describe('redirect spellings', () => {
  it.each(SPELLINGS)('echo x %s /etc/profile writes into a system tree', (op) => {
    expect(shellReason(`echo x ${op} /etc/profile`)).toBe(
      'dangerous shell: write into a system tree',
    );
  });

  it.each(SPELLINGS)('cat img %s /dev/sdb writes onto a disk', (op) => {
    expect(shellReason(`cat img ${op} /dev/sdb`)).toMatch(
      /^dangerous shell: write onto a block device$|^forbidden path: raw block devices/,
    );
  });

  it.each(SPELLINGS)('echo x %s ./out.txt passes', (op) => {
    expect(shellReason(`echo x ${op} ./out.txt`)).toBe('PASS');
  });

  it.each(['echo x >&2', 'echo x 1>&2', 'cmd 2>&1', 'echo x >&-', 'cat < /etc/hostname'])(
    '%s (no file written) passes',
    (command) => {
      expect(shellReason(command)).toBe('PASS');
    },
  );
});
