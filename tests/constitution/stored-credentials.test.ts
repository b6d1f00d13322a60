import { describe, expect, it } from 'vitest';
import {
  credentialInFile,
  ENV_CREDENTIAL,
  TOOL_CONFIG_CREDENTIAL,
  STORED_CREDENTIALS,
  storedCredentialIn,
  withoutCredentials,
} from '../../constitution/stored-credentials.ts';

describe('credentials stored in a configuration file', () => {
  it.each(STORED_CREDENTIALS.map((shape) => [shape.name, shape] as const))(
    '%s matches its must examples, names itself for them, and none of its must-nots',
    (_name, shape) => {
      expect(shape.why.length).toBeGreaterThan(10);
      for (const text of shape.must) expect(storedCredentialIn(text)?.name, text).toBe(shape.name);
      for (const text of shape.mustNot) expect(storedCredentialIn(text), text).toBeNull();
    },
  );

  it('a secret-shaped token anywhere in the config counts too', () => {
    expect(
      storedCredentialIn('[github]\n\ttoken = ghp_abcdefghijklmnopqrstuvwxyz0123456789'),
    ).not.toBeNull();
  });

  it.each([
    '[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:o/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
    '[remote "origin"]\n\turl = https://github.com/o/r.git\n[branch "main"]\n\tremote = origin\n',
    'remote.origin.url=ssh://git@gitlab.example.com:2222/o/r.git\nuser.email=ada@example.com\n',
  ])('an ordinary git config holds none: %s', (text) => {
    expect(storedCredentialIn(text)).toBeNull();
  });
});

describe('credentials held in any file', () => {
  it('an env file with a credential-named value holds one; its template does not', () => {
    for (const text of ENV_CREDENTIAL.must)
      expect(credentialInFile('.env', text)?.name, text).toBe(ENV_CREDENTIAL.name);
    for (const text of ENV_CREDENTIAL.mustNot)
      expect(credentialInFile('.env', text), text).toBeNull();
    expect(credentialInFile('.env.example', 'API_KEY=abcd1234')).toBeNull();
    expect(credentialInFile('config.js', 'API_KEY=abcd1234')).toBeNull();
    expect(credentialInFile('prod.env', 'API_KEY=abcd1234')).not.toBeNull();
  });

  it("a tool's config in the home keeps a login as a setting; the same line elsewhere is none", () => {
    // A long written-out value is also any config's credential-named setting: either name will do.
    for (const text of TOOL_CONFIG_CREDENTIAL.must)
      expect(credentialInFile('config.yaml', text, false, true), text).not.toBeNull();
    expect(credentialInFile('config.yaml', 'password: hunter', false, true)?.name).toBe(
      TOOL_CONFIG_CREDENTIAL.name,
    );
    for (const text of TOOL_CONFIG_CREDENTIAL.mustNot)
      expect(credentialInFile('config.yaml', text, false, true), text).toBeNull();
    expect(credentialInFile('config.yaml', 'password: hunter22x')).toBeNull();
  });

  it('the text a call without a card prints keeps no key block, token or login', () => {
    const text =
      'a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----\nb ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 c\nurl = https://ada:hunter22@git.example.com/r\n-----BEGIN OPENSSH PRIVATE KEY-----\ncut sho';
    const shown = withoutCredentials(text);
    for (const secret of ['MIIEabc', 'ghp_A1b2', 'hunter22', 'cut sho'])
      expect(shown, secret).not.toContain(secret);
    expect(shown).toContain('a\n');
    expect(withoutCredentials('nothing secret here\n')).toBe('nothing secret here\n');
  });

  it('an encoded credential (base64, wrapped, URL-safe, hex, base64 of base64) goes whole; other encoded text stays', () => {
    const keys = 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n';
    const b64 = (text: string): string => Buffer.from(text).toString('base64');
    const wrapped = b64(keys.repeat(3)).replace(/.{76}/g, '$&\n');
    for (const encoded of [
      b64(keys),
      wrapped,
      b64(keys).replace(/\+/g, '-').replace(/\//g, '_'),
      Buffer.from(keys).toString('hex'),
      Buffer.from(keys).toString('hex').replace(/../g, '$& ').trim(),
      b64(b64(keys)),
    ]) {
      const shown = withoutCredentials(`before ${encoded} after`);
      expect(shown, encoded).toBe('before [credential removed: encoded credential] after');
    }
    for (const kept of [
      'commit 4fb851e2a1e887f84f60ce333f1ad3d95029aa0b',
      `data: ${b64('just an ordinary sentence in a file')}`,
      'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ])
      expect(withoutCredentials(kept)).toBe(kept);
  });
});
