// The suite-wide rule (setup.ts) against a bare RegExp where a value is expected.
import { describe, expect, it } from 'vitest';
import { BareRegExpAssertion } from './bare-regexp.ts';

describe('a bare RegExp compared with a value', () => {
  it('fails toMatchObject even when the pattern would match, and names the fix', () => {
    for (const pattern of [/zzz/, /abc/]) {
      expect(() => expect({ note: 'abc' }).toMatchObject({ note: pattern })).toThrow(
        BareRegExpAssertion,
      );
      expect(() => expect([{ note: 'abc' }]).toMatchObject([{ note: pattern }])).toThrow(
        /Fix: use expect\.stringMatching/,
      );
      expect(() => expect({ note: 'abc' }).toEqual({ note: pattern })).toThrow(BareRegExpAssertion);
    }
  });

  it('leaves RegExp-to-RegExp comparisons and stringMatching alone', () => {
    expect({ pattern: /a/g }).toEqual({ pattern: /a/g });
    expect(() => expect({ pattern: /a/ }).toEqual({ pattern: /b/ })).toThrow(/expected/);
    expect({ note: 'abc' }).toMatchObject({ note: expect.stringMatching(/b/) as unknown });
    expect(() =>
      expect({ note: 'abc' }).toMatchObject({ note: expect.stringMatching(/z/) as unknown }),
    ).toThrow(/expected/);
  });
});
