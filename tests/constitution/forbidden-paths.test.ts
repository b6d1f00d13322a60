import { describe, expect, it } from 'vitest';
import { DANGEROUS_SHELL } from '../../constitution/dangerous-shell.ts';
import {
  FORBIDDEN_PATHS,
  forbiddenPathRule,
  isBlockDevice,
} from '../../constitution/forbidden-paths.ts';
import { LAWS } from '../../constitution/laws.ts';

const home = '/home/ada';
const expand = (p: string): string => p.replace(/^~/, home);

describe('constitution', () => {
  it('every forbidden family matches its own samples and names itself for them', () => {
    for (const rule of FORBIDDEN_PATHS) {
      expect(rule.samples.length).toBeGreaterThan(0);
      for (const sample of rule.samples)
        expect(forbiddenPathRule(expand(sample))?.name).toBe(rule.name);
    }
  });

  it('every rule and law says why', () => {
    for (const item of [...FORBIDDEN_PATHS, ...DANGEROUS_SHELL, ...LAWS])
      expect(item.why.length).toBeGreaterThan(10);
    expect(new Set(DANGEROUS_SHELL.map((r) => r.name)).size).toBe(DANGEROUS_SHELL.length);
  });

  it.each([
    '/etc/passwd.txt',
    '/etc/hosts',
    '/rootless',
    '/system',
    '/proc/cpuinfo',
    'notes/.sshrc',
    '/dev/sda-notes',
    '/dev/shm/x',
    '/usr/share/base-passwd/passwd.master',
  ])('%s is not forbidden', (path) => {
    expect(forbiddenPathRule(path)).toBeNull();
  });

  it('a relative path that climbs is tried from the root', () => {
    expect(forbiddenPathRule('../../etc/shadow')?.name).toContain('/etc/passwd');
    expect(forbiddenPathRule('etc/shadow')).toBeNull();
  });

  it('knows block devices', () => {
    expect(['/dev/sda', '/dev/mmcblk0p1', '/dev/mapper/x'].every(isBlockDevice)).toBe(true);
    expect(['/dev/null', '/dev/tty', '/dev/sda-notes', 'dev/sda'].some(isBlockDevice)).toBe(false);
  });
});
