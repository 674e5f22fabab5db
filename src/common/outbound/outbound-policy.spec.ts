import { checkOutboundUrl, invalidCidrs, OutboundPolicy, parseCidr } from './outbound-policy.js';

describe('outbound policy', () => {
  const strict = new OutboundPolicy([]);
  const check = (url: string, policy = strict) => checkOutboundUrl(url, policy);

  it('accepts public http(s) URLs and hostnames (names are checked when resolved)', () => {
    expect(check('https://api.example.com/orders?id=1')).toBeNull();
    expect(check('http://93.184.216.34:8080/x')).toBeNull();
    expect(check('https://[2606:2800:220:1:248:1893:25c8:1946]/')).toBeNull();
    expect(check('http://localhost:8080/')).toBeNull();
  });

  it('refuses other schemes, userinfo, relative and over-long URLs', () => {
    expect(check('ftp://example.com/')).toMatch(/http or https/);
    expect(check('file:///etc/passwd')).toMatch(/http or https/);
    expect(check('javascript:alert(1)')).toMatch(/http or https/);
    expect(check('https://user:pass@example.com/')).toMatch(/credentials/);
    expect(check('https://user@example.com/')).toMatch(/credentials/);
    expect(check('/relative/path')).toMatch(/absolute/);
    expect(check('')).not.toBeNull();
    expect(check(`https://example.com/${'a'.repeat(2048)}`)).toMatch(/2048/);
    expect(check(`https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`)).toBeNull();
  });

  it.each([
    ['http://0.0.0.0/', 'unspecified'],
    ['http://0.1.2.3/', 'unspecified'],
    ['http://10.0.0.1/', 'private'],
    ['http://10.255.255.255/', 'private'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://100.127.255.254/', 'carrier-grade NAT'],
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.255.0.9/', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://169.254.1.1/', 'link-local'],
    ['http://172.16.0.1/', 'private'],
    ['http://172.31.255.255/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://192.0.0.170/', 'IETF'],
    ['http://198.18.0.1/', 'benchmarking'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://239.255.255.250/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://[::]/', 'unspecified'],
    ['http://[::1]/', 'loopback'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fc00::1]/', 'unique-local'],
    ['http://[fd00:ec2::254]/', 'unique-local'],
    ['http://[fd12:3456::1]/', 'unique-local'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://[fec0::1]/', 'site-local'],
    ['http://[::127.0.0.1]/', 'IPv4-compatible'],
  ])('refuses %s (%s)', (url, what) => {
    expect(check(url)).toContain(what);
  });

  it('keeps public neighbours of refused ranges', () => {
    for (const url of [
      'http://9.255.255.255/',
      'http://11.0.0.0/',
      'http://100.63.255.255/',
      'http://100.128.0.0/',
      'http://172.15.255.255/',
    ]) {
      expect(check(url)).toBeNull();
    }
    for (const url of [
      'http://172.32.0.0/',
      'http://169.253.255.255/',
      'http://192.169.0.0/',
      'http://223.255.255.255/',
      'http://[2001:db9::1]/',
    ]) {
      expect(check(url)).toBeNull();
    }
  });

  it('refuses IPv4-mapped IPv6 spellings of refused IPv4 addresses', () => {
    expect(check('http://[::ffff:127.0.0.1]/')).toContain('loopback');
    expect(check('http://[::ffff:7f00:1]/')).toContain('loopback');
    expect(check('http://[0:0:0:0:0:ffff:a9fe:a9fe]/')).toContain('link-local');
    expect(check('http://[::ffff:10.1.2.3]/')).toContain('private');
    expect(check('http://[::ffff:93.184.216.34]/')).toBeNull();
  });

  it.each([
    ['NAT64', 'http://[64:ff9b::a9fe:a9fe]/', '169.254.169.254'],
    ['NAT64, dotted', 'http://[64:ff9b::127.0.0.1]/', '127.0.0.1'],
    ['IPv4-translated', 'http://[::ffff:0:a9fe:a9fe]/', '169.254.169.254'],
    ['6to4', 'http://[2002:a9fe:a9fe::1]/', '169.254.169.254'],
    ['6to4, private', 'http://[2002:0a00:0001:1::1]/', '10.0.0.1'],
    ['Teredo client', 'http://[2001:0:4136:e378:8000:63bf:5601:5601]/', '169.254.169.254'],
    ['Teredo server', 'http://[2001:0:7f00:1:8000:63bf:3fff:fdd2]/', '127.0.0.1'],
    ['ISATAP', 'http://[2001:db8::5efe:a9fe:a9fe]/', '169.254.169.254'],
    ['ISATAP, universal', 'http://[2001:db8::200:5efe:c0a8:101]/', '192.168.1.1'],
  ])('refuses an IPv6 address embedding a refused IPv4 one: %s %s', (_form, url, ipv4) => {
    expect(check(url)).toContain(`it embeds ${ipv4}`);
  });

  it('keeps IPv6 forms embedding a public IPv4 address, and refuses local-use NAT64 and IPv4-compatible whole', () => {
    expect(check('http://[64:ff9b::5db8:d822]/')).toBeNull();
    expect(check('http://[2002:5db8:d822::1]/')).toBeNull();
    expect(check('http://[2001:0:5db8:d822:8000:63bf:a247:27dd]/')).toBeNull();
    expect(check('http://[2001:db8::5efe:5db8:d822]/')).toBeNull();
    expect(check('http://[64:ff9b:1::5db8:d822]/')).toContain('local-use NAT64');
    expect(check('http://[::93.184.216.34]/')).toContain('IPv4-compatible');
  });

  it('applies the allowed networks to the embedded IPv4 address', () => {
    const loopbackAllowed = new OutboundPolicy(['127.0.0.0/8']);
    expect(loopbackAllowed.isBlockedAddress('64:ff9b::7f00:1')).toBe(false);
    expect(loopbackAllowed.isBlockedAddress('64:ff9b::a9fe:a9fe')).toBe(true);
    expect(new OutboundPolicy(['64:ff9b::/96']).isBlockedAddress('64:ff9b::a9fe:a9fe')).toBe(false);
  });

  it('refuses the decimal, octal, hex and short forms URL parsers normalise to refused addresses', () => {
    expect(check('http://2130706433/')).toContain('127.0.0.1');
    expect(check('http://017700000001/')).toContain('127.0.0.1');
    expect(check('http://0x7f000001/')).toContain('127.0.0.1');
    expect(check('http://0x7f.1/')).toContain('127.0.0.1');
    expect(check('http://127.1/')).toContain('127.0.0.1');
    expect(check('http://0177.0.0.1/')).toContain('127.0.0.1');
    expect(check('http://2852039166/')).toContain('169.254.169.254');
    expect(check('http://0xa9.0xfe.0xa9.0xfe/')).toContain('169.254.169.254');
    expect(check('http://0/')).toContain('0.0.0.0');
  });

  it('lets allowed networks through, and only those', () => {
    const tests = new OutboundPolicy(['127.0.0.0/8', '::1/128', '10.20.0.0/16']);
    expect(check('http://127.0.0.1:3000/', tests)).toBeNull();
    expect(check('http://[::1]:3000/', tests)).toBeNull();
    expect(check('http://[::ffff:127.0.0.1]/', tests)).toBeNull();
    expect(check('http://10.20.3.4/', tests)).toBeNull();
    expect(check('http://10.21.0.1/', tests)).toContain('private');
    expect(check('http://169.254.169.254/', tests)).toContain('link-local');
    expect(check('http://[fd00:ec2::254]/', tests)).toContain('unique-local');
  });

  it('checks resolved addresses at connect time', () => {
    expect(strict.isBlockedAddress('127.0.0.1')).toBe(true);
    expect(strict.isBlockedAddress('::ffff:127.0.0.1')).toBe(true);
    expect(strict.isBlockedAddress('fd00:ec2::254')).toBe(true);
    expect(strict.isBlockedAddress('93.184.216.34')).toBe(false);
    expect(strict.isBlockedAddress('2606:4700::1111')).toBe(false);
    expect(strict.isBlockedAddress('not-an-ip')).toBe(true);
    expect(strict.isBlockedAddress('64:ff9b::a9fe:a9fe')).toBe(true);
    expect(strict.isBlockedAddress('2002:7f00:1::')).toBe(true);
    const loopbackAllowed = new OutboundPolicy(['127.0.0.0/8']);
    expect(loopbackAllowed.isBlockedAddress('127.0.0.1')).toBe(false);
    expect(loopbackAllowed.isBlockedAddress('::1')).toBe(true);
  });

  it('parses CIDR lists', () => {
    expect(parseCidr('127.0.0.0/8')).toEqual({ address: '127.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseCidr('::1/128')).toEqual({ address: '::1', prefix: 128, family: 'ipv6' });
    expect(parseCidr('10.0.0.0/33')).toBeNull();
    expect(parseCidr('10.0.0.0')).toBeNull();
    expect(parseCidr('example.com/8')).toBeNull();
    expect(invalidCidrs('')).toEqual([]);
    expect(invalidCidrs(' 127.0.0.0/8 , ::1/128 ')).toEqual([]);
    expect(invalidCidrs('127.0.0.0/8,nope,::1/200')).toEqual(['nope', '::1/200']);
    expect(() => new OutboundPolicy(['nope'])).toThrow(/CIDR/);
  });
});
