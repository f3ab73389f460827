import { describe, expect, it } from 'vitest';
import { addressGroup } from '../src/kit/client-address';

describe('addressGroup: the client a per-address rule counts', () => {
  it('keeps IPv4 addresses as they are, and reads IPv4-mapped IPv6 as IPv4', () => {
    expect(addressGroup('198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('::FFFF:198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('0:0:0:0:0:ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('::ffff:c633:6407')).toBe('198.51.100.7');
  });

  it('groups IPv6 by /64, whichever way the address is written', () => {
    for (const address of [
      '2001:db8:0:7::1',
      '2001:db8:0:7:a:b:c:d',
      '2001:0DB8:0000:0007:0000:0000:0000:0001',
      '2001:db8:0:7::1%eth0',
      '2001:db8:0:7::192.0.2.1',
    ]) {
      expect(addressGroup(address), address).toBe('2001:db8:0:7::/64');
    }
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('::')).toBe('0:0:0:0::/64');
    expect(addressGroup('2001:db8:0:8::1')).not.toBe(addressGroup('2001:db8:0:7::1'));
  });

  it('leaves what is not an address as it is: a client of its own', () => {
    for (const text of ['unknown', '', 'not:an:address', '1:2:3:4:5:6:7:8:9', '1::2::3', '::ffff:300.1.1.1', 'g::1']) {
      expect(addressGroup(text), text).toBe(text);
    }
  });
});
