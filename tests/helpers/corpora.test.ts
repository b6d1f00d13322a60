import { describe, expect, it } from 'vitest';
import { corporaExpected } from './corpora.ts';

describe('corporaExpected', () => {
  it.each([
    [{ CI: 'true' }, true],
    [{ CI: '1' }, true],
    [{ CI: 'TRUE' }, true],
    [{ CI: 'false' }, false],
    [{ CI: '0' }, false],
    [{ CI: '' }, false],
    [{}, false],
  ])('%j -> %s', (env, expected) => {
    expect(corporaExpected(env)).toBe(expected);
  });
});
