// Which addresses the feed reader may connect to: public IPv4 and IPv6 ones, never loopback, private,
// link-local, shared, multicast or reserved ones (IPv4-mapped IPv6 included), except the ranges an operator
// allows with NEWS_ALLOW_PRIVATE_ADDRESSES, which is checked at start-up.
import { describe, expect, it } from 'vitest';
import { addressPolicy, parseAddressRange } from '../src/adapters/public-address.ts';
import { newsConfigSchema } from '../src/config.ts';

describe('addressPolicy', () => {
  const allows = addressPolicy();

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '172.32.0.1',
    '192.169.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
  ])('allows the public address %s', (address) => {
    expect(allows(address)).toBe(true);
  });

  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::127.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '::ffff:169.254.169.254',
    'fc00::1',
    'fd12:3456:789a::1',
    'fe80::1',
    'febf::1',
    'ff02::1',
  ])('refuses %s', (address) => {
    expect(allows(address)).toBe(false);
  });

  it('allows exactly the listed addresses and ranges, nothing beside them', () => {
    const allowsListed = addressPolicy(['127.0.0.1', '10.1.0.0/16', 'fd00::/64']);
    expect(['127.0.0.1', '10.1.2.3', 'fd00::5', '8.8.8.8'].map(allowsListed)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['127.0.0.2', '10.2.0.1', 'fd00:0:0:1::5', '169.254.169.254', '::1'].map(allowsListed)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('NEWS_ALLOW_PRIVATE_ADDRESSES', () => {
  const setting = newsConfigSchema.shape.NEWS_ALLOW_PRIVATE_ADDRESSES;

  it('is empty unless set, and takes addresses and ranges, comma-separated', () => {
    expect(setting.parse(undefined)).toEqual([]);
    expect(setting.parse(' 127.0.0.1, 10.0.0.0/8 ,fd00::/8 ')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
  });

  it.each(['localhost', '10.0.0.0/33', '10.0.0.0/x', '::1/129', '1.2.3.4/8/9'])(
    'refuses %j at start-up, saying why',
    (value) => {
      const result = setting.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(
        `"${value}" is not an IP address or a range such as 10.0.0.0/8`,
      );
      expect(() => parseAddressRange(value)).toThrow(RangeError);
    },
  );
});
