import { describe, expect, it } from 'vitest';
import { STORED_CREDENTIALS, storedCredentialIn } from '../../constitution/stored-credentials.ts';

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
