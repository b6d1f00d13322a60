import { describe, expect, it } from 'vitest';
import { bodyToText } from '../../../executors/web/body-text.ts';

describe('bodyToText', () => {
  it('decodes with the declared charset and falls back to UTF-8 for an unknown one', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
    expect(await bodyToText(latin1, 'text/plain; charset=ISO-8859-1')).toBe('café');
    expect(await bodyToText(Buffer.from('café'), 'text/plain; charset="no-such-charset"')).toBe(
      'café',
    );
    expect(await bodyToText(Buffer.from('{"a":1}'), 'application/json')).toBe('{"a":1}');
  });

  it('describes binary content instead of returning it', async () => {
    expect(await bodyToText(Buffer.from([0, 1, 2]), 'image/png')).toBe(
      '[binary content: 3 bytes of image/png]',
    );
  });
});
