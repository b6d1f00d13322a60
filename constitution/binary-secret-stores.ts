// Secret stores that are binary files: a password database, a key store, a keyring, a private
// key in DER or OpenSSH's binary form. Copied or hard-linked under an ordinary name they have no
// text to judge and no telling name, so they are known by their first bytes: each format's
// documented signature (the source is named beside each). A file that starts like one holds
// the store; reading it takes a card, a walk leaves it out, and printed (as bytes, hex or
// base64) it is removed. The head is given as text of one character per byte (latin1).
/* eslint-disable no-control-regex -- a format's signature is bytes, control characters included */
import type { StoredCredential } from './stored-credentials.ts';

// A DER length after its tag: short form, long form of one to three bytes, or BER's indefinite.
const LEN = '(?:[\\x00-\\x7f]|\\x80|\\x81[\\s\\S]|\\x82[\\s\\S]{2}|\\x83[\\s\\S]{3})';
// The DER of OID 1.2.840.113549.1 (PKCS) after its tag and length: `2a 86 48 86 f7 0d 01`.
const PKCS_OID = '\\x2a\\x86\\x48\\x86\\xf7\\x0d\\x01';
// An OpenPGP packet header for a secret key or subkey (tags 5 and 7), old or new format
// (RFC 4880 §4.2), then the key packet's version 3 to 6 (RFC 4880 §5.5.2, RFC 9580 §5.5.2).
const PGP_SECRET =
  '(?:[\\x94\\x9c][\\s\\S]|[\\x95\\x9d][\\s\\S]{2}|[\\x96\\x9e][\\s\\S]{4}|[\\x97\\x9f]|[\\xc5\\xc7](?:[\\x00-\\xbf]|[\\xc0-\\xdf][\\s\\S]|\\xff[\\s\\S]{4}))[\\x03-\\x06]';

/** One binary store format: `pattern` is tested on the file's head; examples are hex. */
export type BinarySecretStore = StoredCredential;

const hex = (bytes: string): string =>
  bytes.replace(/\s/g, '').replace(/../g, (pair) => String.fromCharCode(Number.parseInt(pair, 16)));

export const BINARY_SECRET_STORES: readonly BinarySecretStore[] = [
  {
    name: 'a KeePass database (by its signature)',
    why: 'every password in it opens with one master password, and the file is what an attacker takes',
    // KeePass KdbxFile.cs: FileSignature1 0x9AA2D903, FileSignature2 0xB54BFB67 (KDBX 2-4),
    // 0xB54BFB65 (KeePass 1 .kdb), 0xB54BFB66 (pre-release KDBX); little-endian on disk.
    pattern: /^\x03\xd9\xa2\x9a[\x65-\x67]\xfb\x4b\xb5/,
    must: [hex('03d9a29a 67fb4bb5 01000400'), hex('03d9a29a 65fb4bb5')],
    mustNot: [hex('03d9a29a 68fb4bb5'), 'KeePass notes'],
  },
  {
    name: 'a Java key store (JKS or JCEKS, by its signature)',
    why: 'it holds private keys that sign releases and serve TLS',
    // OpenJDK sun.security.provider.JavaKeyStore MAGIC 0xfeedfeed; JceKeyStore JCEKS_MAGIC 0xcececece.
    pattern: /^(?:\xfe\xed\xfe\xed|\xce\xce\xce\xce)\x00\x00\x00[\x01\x02]/,
    must: [hex('feedfeed 00000002 00000001'), hex('cececece 00000002')],
    mustNot: [hex('feedfeed 00000009'), 'feedfeed'],
  },
  {
    name: 'a PKCS#12 key bundle (.p12/.pfx, by its structure)',
    why: 'it holds a private key with its certificate, often under a weak password',
    // RFC 7292 §4: PFX ::= SEQUENCE { version INTEGER (3), authSafe ContentInfo (OID
    // pkcs7-data 1.2.840.113549.1.7.1 or signedData .7.2) ... }, DER or BER encoded.
    pattern: new RegExp(
      `^\\x30${LEN}\\x02\\x01\\x03\\x30${LEN}\\x06\\x09${PKCS_OID}\\x07[\\x01\\x02]`,
    ),
    must: [
      hex('3082 0a5c 020103 3082 0a22 0609 2a864886f70d010701'),
      hex('3080 020103 3080 0609 2a864886f70d010701'),
    ],
    mustNot: [hex('3082 0a5c 020102 3082 0a22 0609 2a864886f70d010701')],
  },
  {
    name: 'a private key in DER form (PKCS#8, PKCS#1, SEC 1, by its structure)',
    why: 'the key itself, in the binary form openssl writes with -outform DER',
    // RFC 5208/5958 PrivateKeyInfo: SEQUENCE { INTEGER 0|1, AlgorithmIdentifier SEQUENCE, ... };
    // RFC 8017 A.1.2 RSAPrivateKey: SEQUENCE { INTEGER 0, INTEGER modulus, ... }; RFC 5915
    // ECPrivateKey: SEQUENCE { INTEGER 1, OCTET STRING ... }; RFC 5208 EncryptedPrivateKeyInfo:
    // SEQUENCE { SEQUENCE { OID PKCS#5 1.2.840.113549.1.5.x or PKCS#12 PBE .1.12.1.x ... } ... }.
    pattern: new RegExp(
      `^\\x30${LEN}(?:\\x02\\x01(?:\\x00[\\x02\\x30]|\\x01[\\x04\\x30])|\\x30${LEN}\\x06(?:\\x09${PKCS_OID}\\x05|\\x0a${PKCS_OID}\\x0c\\x01))`,
    ),
    must: [
      hex('3082 04a4 020100 0282 0101'),
      hex('3082 04bd 020100 300d 0609 2a864886f70d010101'),
      hex('3077 020101 0420'),
      hex('3082 0510 3040 0609 2a864886f70d01050d'),
    ],
    // A certificate: SEQUENCE { SEQUENCE { [0] version ... } }; an RSA public key: no version.
    mustNot: [hex('3082 0301 3082 01e9 a003 020102'), hex('3082 010a 0282 0101 00')],
  },
  {
    name: 'an OpenSSH private key in binary form',
    why: 'the key logs in wherever its public half is authorized',
    // OpenSSH PROTOCOL.key: the decoded key starts with AUTH_MAGIC "openssh-key-v1\0".
    pattern: /^openssh-key-v1\x00/,
    must: ['openssh-key-v1\x00\x00\x00\x00\x04none'],
    mustNot: ['openssh-key-v1 is the format name'],
  },
  {
    name: 'a PuTTY private key',
    why: 'the key logs in wherever its public half is authorized',
    // PuTTY manual, appendix C (PPK file format): the first line is "PuTTY-User-Key-File-N: ...".
    pattern: /^PuTTY-User-Key-File-\d+:/,
    must: ['PuTTY-User-Key-File-3: ssh-ed25519\n'],
    mustNot: ['PuTTY-User-Key-File format notes'],
  },
  {
    name: 'an OpenPGP secret key (a GnuPG secret keyring or exported secret key)',
    why: 'it signs and decrypts as its owner',
    pattern: new RegExp(`^${PGP_SECRET}`),
    must: [hex('9503be 04 5f1a2b3c 01'), hex('c558 04'), hex('9458 04')],
    // A public key packet (tag 6: 0x99, 0xc6) and a signature (tag 2: 0x89).
    mustNot: [hex('99018d 04'), hex('c633 04'), hex('8901b3 04')],
  },
  {
    name: 'a GnuPG private key file (private-keys-v1.d)',
    why: 'it signs and decrypts as its owner',
    // GnuPG agent/keyformat.txt: a canonical S-expression "(21:protected-private-key" or
    // "(11:private-key", or the extended format whose "Key:" item holds that S-expression.
    pattern:
      /^\((?:\d+:)?(?:protected-|shadowed-)?private-key|(?:^|\n)Key: \((?:protected-)?private-key/,
    must: [
      '(21:protected-private-key(3:rsa',
      'Created: 20250101T000000\nKey: (protected-private-key (rsa',
    ],
    mustNot: ['(private notes)', 'Key: value'],
  },
  {
    name: 'a macOS keychain',
    why: 'it holds the passwords, keys and certificates of the account',
    // Apple Security framework keychain file: signature "kych", then version 0x00010000.
    pattern: /^kych\x00\x01\x00\x00/,
    must: ['kych\x00\x01\x00\x00\x00\x00\x00\x38'],
    mustNot: ['kych notes'],
  },
  {
    name: 'a Password Safe, KWallet or GNOME keyring database',
    why: 'every password in it opens with one master password',
    // Password Safe formatV3.txt: TAG "PWS3"; KDE kwalletbackend.cpp KWMAGIC "KWALLET\n\r\0\r\n";
    // gnome-keyring pkcs11/secret-store/gkm-secret-binary.c KEYRING_FILE_HEADER "GnomeKeyring\n\r\0\n".
    pattern: /^(?:PWS3[\s\S]{32}|KWALLET\n\r\x00\r\n|GnomeKeyring\n\r\x00\n)/,
    must: [`PWS3${'\x07'.repeat(32)}`, 'KWALLET\n\r\x00\r\n\x00\x01', 'GnomeKeyring\n\r\x00\n\x00'],
    mustNot: ['PWS3', 'KWALLET notes', 'GnomeKeyring notes'],
  },
];

/** How many bytes of a file's head the signatures look at. */
export const SIGNATURE_BYTES = 64;

/** The store a file's head (one character per byte) starts like, or null. */
export function binarySecretStoreIn(head: string): BinarySecretStore | null {
  const start = head.slice(0, SIGNATURE_BYTES);
  return BINARY_SECRET_STORES.find((store) => store.pattern.test(start)) ?? null;
}

/** Every signature in one pattern, for a reader that cannot call back (fs_grep's worker). */
export const ANY_BINARY_SECRET_STORE = new RegExp(
  BINARY_SECRET_STORES.map((store) => `(?:${store.pattern.source})`).join('|'),
);
