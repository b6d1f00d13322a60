// One hop's host as web_fetch and the fetch proxy check it: in web.domain_allowlist, and every
// address it resolves to public (or in web.private_allowlist). The caller connects to one of
// the addresses returned, so DNS cannot rebind between the check and the connect.
import type { Config } from '../../runtime/config.ts';
import { DomainNotAllowed, NetworkError } from '../../runtime/errors.ts';
import {
  addressRange,
  isDomainAllowed,
  isPrivateAllowed,
  isPublicAddress,
} from './address-policy.ts';

export type Lookup = (host: string) => Promise<readonly string[]>;

/** The addresses `host` may be reached at; throws DomainNotAllowed or NetworkError with the reason. */
export async function checkedAddresses(
  host: string,
  web: Config['web'],
  lookup: Lookup,
): Promise<readonly string[]> {
  if (!isDomainAllowed(host, web.domain_allowlist)) {
    throw new DomainNotAllowed(`${host} is not in web.domain_allowlist`);
  }
  const addresses = await lookup(host);
  if (addresses.length === 0) throw new NetworkError(`${host} did not resolve`);
  // Every address must pass: a name that also resolves to a private address is refused outright.
  for (const address of addresses) {
    if (!isPublicAddress(address) && !isPrivateAllowed(host, address, web.private_allowlist)) {
      throw new DomainNotAllowed(
        `${host} resolves to ${address} (${addressRange(address)}), a non-public address; add the host or a CIDR to web.private_allowlist to allow it`,
      );
    }
  }
  return addresses;
}
