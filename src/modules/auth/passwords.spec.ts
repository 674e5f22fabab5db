import { scryptSync } from 'node:crypto';
import { hashPassword, verifyPassword } from './passwords.js';

describe('password hashes', () => {
  it('writes scrypt PHC strings that verify the password and nothing else', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
    expect(await verifyPassword(hash, 'correct horse battery')).toEqual({ valid: true, outdated: false });
    expect(await verifyPassword(hash, 'correct horse batterY')).toEqual({ valid: false, outdated: false });
  });

  it('verifies a hash the argon2 package wrote, and reports it outdated only when the password matched', async () => {
    const legacy = '$argon2id$v=19$m=65536,p=4,t=3$93T6nqvDBLFBhi/x/lK/rQ$Iom7tQhoWP0jjh8DVTaICuG4NpMQvWDROMlvqN7F2k4';
    expect(await verifyPassword(legacy, 'legacy-password-1')).toEqual({ valid: true, outdated: true });
    expect(await verifyPassword(legacy, 'legacy-password-2')).toEqual({ valid: false, outdated: false });
    expect(await verifyPassword('$argon2id$v=19$garbage', 'legacy-password-1')).toEqual({ valid: false, outdated: false });
  });

  it('reports a scrypt hash with other parameters outdated', async () => {
    const salt = Buffer.from('0123456789abcdef');
    const key = scryptSync('pw-with-old-cost', salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');
    const older = `$scrypt$ln=14,r=8,p=1$${b64(salt)}$${b64(key)}`;
    expect(await verifyPassword(older, 'pw-with-old-cost')).toEqual({ valid: true, outdated: true });
    expect(await verifyPassword(older, 'other')).toEqual({ valid: false, outdated: false });
  });

  it('refuses malformed hashes and parameters beyond the bounds without computing them', async () => {
    const salt = 'MDEyMzQ1Njc4OWFiY2RlZg';
    const key = 'a'.repeat(43);
    for (const stored of [
      '',
      'plain',
      `$scrypt$ln=40,r=8,p=1$${salt}$${key}`,
      `$scrypt$ln=15,r=99,p=1$${salt}$${key}`,
      `$scrypt$ln=0,r=8,p=1$${salt}$${key}`,
    ]) {
      expect(await verifyPassword(stored, 'pw')).toEqual({ valid: false, outdated: false });
    }
  });
});
