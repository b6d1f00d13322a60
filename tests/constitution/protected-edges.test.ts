// The edges of the protected list and of the public-key exception, by cases written here:
// Custode's own dirs (the dir itself, below it, a sibling sharing its prefix, any of several,
// `/` as a dir), every sandbox mask naming a protected place, a public key text at its size
// limit and with blank lines, a `.pub` only where its family keeps public halves, and the
// readers that only print what they read.
import { describe, expect, it } from 'vitest';
import { maskedStores, protectionOf } from '../../constitution/protected.ts';
import {
  isPublicKeyText,
  onlyPublicHalves,
  PUBLIC_KEY_MAX_BYTES,
  readsFilesOnly,
} from '../../constitution/public-keys.ts';

const OWN = "Custode's own config, state and audit log";
const KEY = `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGxq1Yb8cXbVh9bU1wq3xU0cQmS3fQy2f1n4Vb0tYk7p`;

describe("Custode's own dirs", () => {
  const dirs = ['/srv/custode/state', '/var/lib/custode-data'];

  it.each([
    '/srv/custode/state',
    '/srv/custode/state/approvals/x.json',
    '/var/lib/custode-data',
    '/var/lib/custode-data/vaglio/2026-11.jsonl',
  ])('%s is protected', (path) => {
    expect(protectionOf(path, dirs)?.name).toContain(OWN);
  });

  it.each(['/srv/custode/state-old/x', '/srv/custode', '/var/lib/custode-data2', '/tmp/x'])(
    '%s is not',
    (path) => {
      expect(protectionOf(path, dirs)).toBeNull();
    },
  );

  it('a root of / protects everything', () => {
    expect(protectionOf('/tmp/anything', ['/'])?.name).toContain(OWN);
  });
});

describe("the sandbox's masks", () => {
  const home = '/data/ada';
  it('every home mask is a protected place under any home', () => {
    const { home: masks } = maskedStores();
    expect(masks.length).toBeGreaterThan(50);
    const unprotected = masks.filter(
      (mask) => protectionOf(`${home}/${mask.replaceAll('*', 'x')}`, [])?.name === undefined,
    );
    expect(unprotected).toEqual([]);
  });

  it('every system mask is a protected place', () => {
    const { system } = maskedStores();
    expect(system).toEqual(expect.arrayContaining(['/etc/shadow', '/etc/sudoers']));
    const unprotected = system.filter(
      (mask) => protectionOf(mask.replaceAll('*', 'rsa'), []) === null,
    );
    expect(unprotected).toEqual([]);
  });
});

describe('a public key text', () => {
  it(`is judged up to ${PUBLIC_KEY_MAX_BYTES} characters and no further`, () => {
    const exact = `${KEY} ${'c'.repeat(PUBLIC_KEY_MAX_BYTES - KEY.length - 1)}`;
    expect(exact).toHaveLength(PUBLIC_KEY_MAX_BYTES);
    expect(isPublicKeyText(exact)).toBe(true);
    expect(isPublicKeyText(`${exact}c`)).toBe(false);
  });

  it('blank lines around and between the keys do not matter', () => {
    expect(isPublicKeyText(`\n${KEY} ada@laptop\n\n${KEY}\n\n`)).toBe(true);
    expect(isPublicKeyText(`${KEY}\r\n\r\n${KEY} x\r\n`)).toBe(true);
  });

  it('one line that is not a key spoils the whole text', () => {
    expect(isPublicKeyText(`${KEY}\npassword=hunter2\n`)).toBe(false);
    expect(isPublicKeyText(`token=abc\n${KEY}\n`)).toBe(false);
    expect(isPublicKeyText('\n \n')).toBe(false);
  });
});

describe('a .pub is readable only where its family keeps public halves', () => {
  it.each([
    ['/data/ada/.ssh/id_ed25519.pub', true],
    ['/data/ada/.ssh/keys/work.pub', true],
    ['/data/ada/.ssh/id_ed25519', false],
    ['/data/ada/.ssh/config', false],
    ['/data/ada/.aws/key.pub', false],
    ['/data/ada/.gnupg/pubring.pub', false],
    ['/data/ada/notes.txt', true],
    ['/tmp/x.pub', true],
  ] as const)('%s: %s', (path, readable) => {
    expect(onlyPublicHalves(path)).toBe(readable);
  });
});

describe('a reader that only prints what it reads', () => {
  it.each([
    ['cat', ['~/.ssh/id_ed25519.pub'], true],
    ['wc', ['-l', 'x.pub'], true],
    ['ssh-keygen', ['-l', '-f', 'x.pub'], true],
    ['ssh-keygen', ['-lf', 'x.pub'], true],
    ['ssh-keygen', ['-lvE', 'md5', '-f', 'x.pub'], true],
    ['ssh-keygen', ['-f', 'x.pub'], false],
    ['ssh-keygen', ['-y', '-f', 'id_ed25519'], false],
    ['ssh-keygen', ['-l', '-y', '-f', 'x'], false],
    ['ssh-keygen', ['-p', '-f', 'id_ed25519'], false],
    ['ssh-keygen', ['--help'], false],
    ['ls', ['-l', 'x.pub'], false],
    ['cp', ['-l', 'x.pub', 'y'], false],
    [null, ['-l'], false],
  ] as const)('%s %j: %s', (binary, args, only) => {
    expect(readsFilesOnly(binary, args)).toBe(only);
  });
});
