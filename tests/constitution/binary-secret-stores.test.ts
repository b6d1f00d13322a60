import { describe, expect, it } from 'vitest';
import {
  ANY_BINARY_SECRET_STORE,
  BINARY_SECRET_STORES,
  binarySecretStoreIn,
} from '../../constitution/binary-secret-stores.ts';
import { withoutCredentials } from '../../constitution/stored-credentials.ts';

const KDBX = Buffer.from('03d9a29a67fb4bb501000400', 'hex');

describe('binary secret stores known by their first bytes', () => {
  it.each(BINARY_SECRET_STORES.map((store) => [store.name, store] as const))(
    '%s matches its must examples, names itself for them, and none of its must-nots',
    (_name, store) => {
      expect(store.why.length).toBeGreaterThan(10);
      for (const head of store.must) {
        expect(binarySecretStoreIn(head)?.name, head).toBe(store.name);
        expect(ANY_BINARY_SECRET_STORE.test(head), head).toBe(true);
      }
      for (const head of store.mustNot) expect(binarySecretStoreIn(head), head).toBeNull();
    },
  );

  it('knows none of the ordinary files that start with bytes of their own', () => {
    for (const head of [
      '\x89PNG\r\n\x1a\n',
      '%PDF-1.7\n',
      'PK\x03\x04\x14\x00',
      '\x7fELF\x02\x01\x01',
      '\x1f\x8b\x08\x00',
      'SQLite format 3\x00',
      '# notes\n',
      '',
    ])
      expect(binarySecretStoreIn(head), JSON.stringify(head)).toBeNull();
  });

  it('removes a store printed as hex or base64 from what a line prints', () => {
    const bytes = Buffer.concat([KDBX, Buffer.alloc(40, 7)]);
    const hex = 'xxd: 00000000: 03d9 a29a 67fb 4bb5 0100 0400 0707 0707  ........';
    expect(withoutCredentials(hex)).not.toContain('03d9 a29a');
    expect(withoutCredentials(bytes.toString('base64'))).toContain('[credential removed');
    expect(withoutCredentials(Buffer.alloc(52, 7).toString('base64'))).not.toContain('removed');
  });
});
