// The public half of a key pair is not a secret: "show me my public key so I can add it to
// GitHub" is an everyday task. A family that keeps public halves (~/.ssh) lets a file named
// `*.pub` be read when what it holds is only public key lines; the name alone proves nothing
// (a private key renamed x.pub stays forbidden), so the content is judged at decision time.
import { FORBIDDEN_PATHS } from './forbidden-paths.ts';

/** Larger files are not public keys: a key line or a certificate is a few KiB at most. */
export const PUBLIC_KEY_MAX_BYTES = 16 * 1024;

// One OpenSSH public key line: optional options are not allowed (that is authorized_keys), the
// type, the base64 blob, an optional comment.
const KEY_TYPE =
  '(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp(?:256|384|521)|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\\.com|(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp(?:256|384|521)|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\\.com)-cert-v01@openssh\\.com)';
const KEY_LINE = new RegExp(`^${KEY_TYPE} [A-Za-z0-9+/]+={0,2}(?: [^\\r\\n]*)?$`);

/** True when the text is one or more public key lines and nothing else (no PRIVATE KEY block). */
export function isPublicKeyText(text: string): boolean {
  if (text.length > PUBLIC_KEY_MAX_BYTES || /PRIVATE KEY/.test(text)) return false;
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return lines.length > 0 && lines.every((line) => KEY_LINE.test(line.trim()));
}

/**
 * True when every family over a normalised absolute path keeps public halves and the name is a
 * `*.pub`; a path no family protects passes too (where a link starts or ends may be plain).
 */
export function onlyPublicHalves(path: string): boolean {
  const families = FORBIDDEN_PATHS.filter((rule) => rule.pattern.test(path));
  if (families.length === 0) return true;
  return path.endsWith('.pub') && families.every((rule) => rule.publicHalves === true);
}

// Programs that print what they read and write nothing; ssh-keygen only with -l (a fingerprint):
// ssh-keygen -y reads the private key, -p and -c rewrite it.
const PLAIN_READERS: ReadonlySet<string> = new Set(['cat', 'head', 'tail', 'wc']);
const FINGERPRINT_OPTION = /^-[lfvE]+$/;

/** True when the program with these arguments only reads the files it names. */
export function readsFilesOnly(binary: string | null, args: readonly string[]): boolean {
  if (binary === null) return false;
  if (PLAIN_READERS.has(binary)) return true;
  if (binary !== 'ssh-keygen') return false;
  const options = args.filter((arg) => arg.startsWith('-'));
  return (
    options.some((arg) => FINGERPRINT_OPTION.test(arg) && arg.includes('l')) &&
    options.every((arg) => FINGERPRINT_OPTION.test(arg))
  );
}
