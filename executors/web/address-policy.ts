// Which hosts and addresses web_fetch may reach. Only global unicast addresses are public;
// loopback, private, link-local (cloud metadata), unique-local, unspecified, CGNAT, reserved
// and the IPv6 tunnels that can embed them are refused unless the operator allowlists them.
import ipaddr from 'ipaddr.js';

/**
 * `host` without IPv6 brackets, in lower case and without the final dot of a fully qualified
 * name (`localhost.` is localhost), as it is compared and resolved.
 */
export function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.+$/, '');
}

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.parse(address);
  // ::ffff:127.0.0.1 reaches 127.0.0.1: judge the IPv4 it maps to.
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

/** True only for a global unicast address; anything unparsable is not public (fail closed). */
export function isPublicAddress(address: string): boolean {
  return parseAddress(address)?.range() === 'unicast';
}

/** The range name ipaddr.js gives (e.g. "loopback", "linkLocal"), for error messages. */
export function addressRange(address: string): string {
  return parseAddress(address)?.range() ?? 'invalid';
}

/** Whether config.web.private_allowlist lets `host`/`address` through: a host name, an address or a CIDR. */
export function isPrivateAllowed(
  host: string,
  address: string,
  allowlist: readonly string[],
): boolean {
  const parsed = parseAddress(address);
  return allowlist.some((entry) => {
    const item = entry.trim().toLowerCase();
    if (item === host) return true;
    if (parsed === undefined) return false;
    if (item.includes('/')) {
      if (!ipaddr.isValidCIDR(item)) return false;
      const [network, bits] = ipaddr.parseCIDR(item);
      return network.kind() === parsed.kind() && parsed.match(network, bits);
    }
    const other = parseAddress(item);
    return (
      other !== undefined &&
      other.kind() === parsed.kind() &&
      other.toString() === parsed.toString()
    );
  });
}

/** Whether config.web.domain_allowlist admits `host`: an exact name, or `*.suffix` for its subdomains. */
export function isDomainAllowed(host: string, allowlist: readonly string[] | undefined): boolean {
  if (allowlist === undefined) return true;
  return allowlist.some((entry) => {
    const item = entry.trim().toLowerCase();
    return item.startsWith('*.') ? host.endsWith(item.slice(1)) : item === host;
  });
}
