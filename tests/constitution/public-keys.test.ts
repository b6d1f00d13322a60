// What counts as a public key file's content: public key lines only, never a private key block,
// never authorized_keys options (a forced command is not a key the person hands out).
import { describe, expect, it } from 'vitest';
import { isPublicKeyText, readsFilesOnly } from '../../constitution/public-keys.ts';

const ED =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILocbLAV3pPmYBcX4DPfn8CcSq7D497wl6VQW2sLx4vM me@laptop';

describe('a public key text', () => {
  it('is one or more public key lines, certificates and security keys included', () => {
    expect(isPublicKeyText(`${ED}\n`)).toBe(true);
    expect(isPublicKeyText(`${ED}\n\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQC7 work\n`)).toBe(true);
    expect(isPublicKeyText('ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY= x\n')).toBe(true);
    expect(
      isPublicKeyText('sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t\n'),
    ).toBe(true);
    expect(
      isPublicKeyText('ssh-ed25519-cert-v01@openssh.com AAAAIHNzaC1lZDI1NTE5LWNlcnQ= me\n'),
    ).toBe(true);
  });

  it('is never a private key, an empty file, prose or an authorized_keys line with options', () => {
    expect(
      isPublicKeyText(
        '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n-----END OPENSSH PRIVATE KEY-----\n',
      ),
    ).toBe(false);
    expect(isPublicKeyText(`${ED}\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\n`)).toBe(false);
    expect(isPublicKeyText(`${ED} PRIVATE KEY\n`)).toBe(false);
    expect(isPublicKeyText('')).toBe(false);
    expect(isPublicKeyText('my password is hunter2\n')).toBe(false);
    expect(isPublicKeyText(`command="/bin/sh" ${ED}\n`)).toBe(false);
    expect(isPublicKeyText(`${ED}\n`.repeat(400))).toBe(false);
  });
});

describe('a reader of public keys', () => {
  it('prints what it reads and writes nothing: ssh-keygen only for a fingerprint', () => {
    expect(readsFilesOnly('cat', ['x.pub'])).toBe(true);
    expect(readsFilesOnly('ssh-keygen', ['-l', '-f', 'x.pub'])).toBe(true);
    expect(readsFilesOnly('ssh-keygen', ['-lf', 'x.pub'])).toBe(true);
    expect(readsFilesOnly('ssh-keygen', ['-y', '-f', 'x.pub'])).toBe(false);
    expect(readsFilesOnly('ssh-keygen', ['-l', '-p', '-f', 'x.pub'])).toBe(false);
    expect(readsFilesOnly('cp', ['x.pub', 'y'])).toBe(false);
    expect(readsFilesOnly(null, ['x.pub'])).toBe(false);
  });
});
