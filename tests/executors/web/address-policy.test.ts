import { describe, expect, it } from 'vitest';
import {
  isDomainAllowed,
  isPrivateAllowed,
  isPublicAddress,
} from '../../../executors/web/address-policy.ts';

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd12::1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:a00:1::',
    'not-an-ip',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('isPrivateAllowed', () => {
  it('matches a host name, an address (mapped forms too) or a CIDR of the same family', () => {
    expect(isPrivateAllowed('nas.lan', '192.168.1.5', ['NAS.lan'])).toBe(true);
    expect(isPrivateAllowed('x', '::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(isPrivateAllowed('x', '192.168.1.5', ['192.168.0.0/16'])).toBe(true);
    expect(isPrivateAllowed('x', '10.0.0.1', ['192.168.0.0/16', 'fd00::/8', 'nas.lan'])).toBe(
      false,
    );
    expect(isPrivateAllowed('x', '10.0.0.1', ['10.0.0.0/99'])).toBe(false);
  });
});

describe('isDomainAllowed', () => {
  it('admits everything without a list, else exact names and *.suffix subdomains', () => {
    expect(isDomainAllowed('any.host', undefined)).toBe(true);
    expect(isDomainAllowed('docs.example.com', ['*.example.com'])).toBe(true);
    expect(isDomainAllowed('example.com', ['*.example.com'])).toBe(false);
    expect(isDomainAllowed('evilexample.com', ['*.example.com'])).toBe(false);
    expect(isDomainAllowed('example.com', ['Example.com'])).toBe(true);
    expect(isDomainAllowed('example.org', ['example.com'])).toBe(false);
  });
});
