import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../shared/integrations/public-address.ts';
import { megabytes } from '../../shared/domain/media/media-errors.ts';

/** The oEmbed fetch's address rule (SSRF) and the contract's size style. */
describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    'localhost',
    'example.com',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  // Issue 21 item 7: IPv4-compatible, SIIT (IPv4-translated) and NAT64 forms of loopback, private and metadata
  // addresses were counted as public.
  it.each([
    '::ffff:0:7f00:1',
    '::ffff:0:127.0.0.1',
    '::7f00:1',
    '::127.0.0.1',
    '::ffff:0:a9fe:a9fe',
    '::a9fe:a9fe',
    '::10.0.0.1',
    '0:0:0:0:0:0:7f00:1',
    '64:ff9b::7f00:1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::10.0.0.1',
    '64:ff9b::c0a8:101',
    '64:ff9b::169.254.169.254',
  ])('item 7: refuses the IPv4-embedding form %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '::ffff:8.8.8.8',
    '1.0.0.1',
    '9.9.9.9',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '[2a00:1450:4001:82b::200e]',
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('megabytes', () => {
  it.each([
    [10 * 1024 * 1024, '10MB'],
    [Math.round(10.1 * 1024 * 1024), '10.1MB'],
    [11 * 1024 * 1024, '11MB'],
    [1536 * 1024, '1.5MB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(megabytes(bytes)).toBe(text);
  });
});
