import { describe, expect, it } from 'vitest';
import { CREDENTIAL_FILES, credentialFileByName } from '../../constitution/credential-files.ts';
import { credentialInFile } from '../../constitution/stored-credentials.ts';

const holdsPrivateKey = (text: string): boolean => credentialInFile('backup.txt', text) !== null;

describe('files that hold a credential wherever they are', () => {
  it.each(CREDENTIAL_FILES.map((file) => [file.name, file] as const))(
    '%s matches its must examples, names itself for them, and none of its must-nots',
    (_name, file) => {
      expect(file.why.length).toBeGreaterThan(10);
      for (const name of file.must)
        expect(credentialFileByName(`/home/ada/project/${name}`)?.name, name).toBe(file.name);
      for (const name of file.mustNot)
        expect(credentialFileByName(`/home/ada/project/${name}`), name).toBeNull();
    },
  );

  it('knows a private key block in any text, and not a public key or a certificate', () => {
    expect(holdsPrivateKey('notes\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n')).toBe(true);
    expect(holdsPrivateKey('{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE"}')).toBe(true);
    expect(holdsPrivateKey('-----BEGIN PGP PRIVATE KEY BLOCK-----')).toBe(true);
    expect(holdsPrivateKey('-----BEGIN CERTIFICATE-----\nMIIB')).toBe(false);
    expect(holdsPrivateKey('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI ada@laptop')).toBe(false);
  });
});
