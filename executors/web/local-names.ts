// What the machine itself answers for a host name, without sending a DNS query: a look-up sends
// the name out, and a name can carry data (`<secret>.example.com`), so a decision made before a
// person answers must not make one. The machine answers alone for an address written as one, the
// names in /etc/hosts, its own name, a name with no dot (the resolver's search list, mDNS, LLMNR)
// and the suffixes kept for local networks (.localhost, .local, .internal, .home.arpa, .lan).
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname } from 'node:os';

/** Suffixes only a local resolver answers (RFC 6761, 6762, 8375; ICANN's .internal; routers' .lan). */
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'lan'];

/** The addresses /etc/hosts gives `host`, in its order; [] when it names none. */
function hostsFileAddresses(host: string, hostsFile: string): string[] {
  let text: string;
  try {
    text = readFileSync(hostsFile, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    const [address, ...names] = (line.split('#')[0] ?? '').trim().split(/\s+/);
    return address !== undefined && names.some((name) => name.toLowerCase() === host)
      ? [address]
      : [];
  });
}

/**
 * What the machine answers for `host` (bare, in lower case) without a DNS query: its addresses
 * (an address itself, or /etc/hosts's), 'local' for a name only the machine or its network
 * resolves (its own name, no dot, a local suffix), or null for a name only DNS answers.
 */
export function localAnswer(
  host: string,
  hostsFile = '/etc/hosts',
): readonly string[] | 'local' | null {
  if (isIP(host) !== 0) return [host];
  const listed = hostsFileAddresses(host, hostsFile);
  if (listed.length > 0) return listed;
  const own = hostname().toLowerCase();
  if (host === own || host.startsWith(`${own}.`) || !host.includes('.')) return 'local';
  return LOCAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))
    ? 'local'
    : null;
}
