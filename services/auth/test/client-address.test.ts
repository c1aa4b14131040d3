// The keys per-address throttles count under: an IPv4 address, an IPv6 /64 (and its /48), IPv4 written as IPv6
// counted as that IPv4 address, whatever way each is written; anything else counts as one unknown client.
import { describe, expect, it } from 'vitest';
import { addressKeys } from '../src/domain/client-address.ts';

describe('addressKeys', () => {
  it('counts an IPv4 address as itself, with no wider tier', () => {
    expect(addressKeys('203.0.113.7')).toEqual({ host: 'ip4:203.0.113.7' });
    expect(addressKeys(' 10.0.0.1 ')).toEqual({ host: 'ip4:10.0.0.1' });
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address, dotted or in hex', () => {
    expect(addressKeys('::ffff:203.0.113.7')).toEqual({ host: 'ip4:203.0.113.7' });
    expect(addressKeys('::FFFF:cb00:7107')).toEqual({ host: 'ip4:203.0.113.7' });
    expect(addressKeys('0:0:0:0:0:ffff:127.0.0.1')).toEqual({ host: 'ip4:127.0.0.1' });
  });

  it('counts every address of one IPv6 /64 as one client, and its /48 as the wider tier', () => {
    const keys = [
      '2001:db8:aa:bb::1',
      '2001:db8:aa:bb:ffff:ffff:ffff:ffff',
      '2001:0DB8:00AA:00BB:1234:5678:9abc:def0',
      '2001:db8:aa:bb:1:2:192.0.2.1',
      // A zone index names the interface, not the client.
      '2001:db8:aa:bb::2%eth0',
    ].map(addressKeys);
    for (const key of keys)
      expect(key).toEqual({ host: 'ip6/64:2001:db8:aa:bb', network: 'ip6/48:2001:db8:aa' });
  });

  it('tells neighbouring /64s apart while they share their /48', () => {
    const one = addressKeys('2001:db8:aa:1::1');
    const two = addressKeys('2001:db8:aa:2::1');
    expect(one.host).not.toBe(two.host);
    expect(one.network).toBe(two.network);
    expect(addressKeys('2001:db8:ab:1::1').network).not.toBe(one.network);
  });

  it('expands the shortest forms', () => {
    expect(addressKeys('::1')).toEqual({ host: 'ip6/64:0:0:0:0', network: 'ip6/48:0:0:0' });
    expect(addressKeys('2001:db8::')).toEqual({ host: 'ip6/64:2001:db8:0:0', network: 'ip6/48:2001:db8:0' });
    // Not mapped: an IPv4-compatible or NAT64 address is a v6 client.
    expect(addressKeys('64:ff9b::203.0.113.7').host).toBe('ip6/64:64:ff9b:0:0');
  });

  it('counts what is not an address as one unknown client', () => {
    for (const value of ['', 'unknown', '203.0.113.256', '2001:db8::1::2', 'localhost', '::ffff:999.0.0.1'])
      expect(addressKeys(value)).toEqual({ host: 'unknown' });
  });
});
