import { describe, expect, it } from 'vitest';
import { SECRET_TOKENS, secretTokenIn } from '../../constitution/secret-tokens.ts';

describe('secret-shaped tokens', () => {
  it.each(SECRET_TOKENS.map((token) => [token.name, token] as const))(
    '%s matches its must examples, names itself for them, and none of its must-nots',
    (_name, token) => {
      expect(token.why.length).toBeGreaterThan(10);
      expect(token.must.length).toBeGreaterThan(0);
      expect(token.mustNot.length).toBeGreaterThan(0);
      for (const text of token.must) expect(secretTokenIn(text)?.name, text).toBe(token.name);
      for (const text of token.mustNot) expect(secretTokenIn(text), text).toBeNull();
    },
  );

  it.each([
    'https://example.com/search?q=how+to+rotate+an+aws+key',
    'npm_config_registry=https://registry.npmjs.org',
    'sk-learn and scikit-learn are the same package',
    'eyJhbGciOiJIUzI1NiJ9 alone is a header, not a token',
    'ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519',
  ])('ordinary text is no token: %s', (text) => {
    expect(secretTokenIn(text)).toBeNull();
  });
});
