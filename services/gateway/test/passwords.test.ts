import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { confirmPassword, createPasswordHasher, verifyPassword } from '../src/auth/passwords';

describe('password hashes', () => {
  it('are scrypt at N=32768 unless PASSWORD_SCRYPT_N says otherwise, a power of two from 1024', () => {
    expect(loadConfig({}).PASSWORD_SCRYPT_N).toBe(32_768);
    expect(loadConfig({ PASSWORD_SCRYPT_N: '1024' }).PASSWORD_SCRYPT_N).toBe(1024);
    expect(() => loadConfig({ PASSWORD_SCRYPT_N: '1000' })).toThrow('PASSWORD_SCRYPT_N: expected a power of two');
    expect(() => loadConfig({ PASSWORD_SCRYPT_N: '512' })).toThrow('PASSWORD_SCRYPT_N: expected at least 1024');
    expect(() => loadConfig({ PASSWORD_SCRYPT_N: 'high' })).toThrow('PASSWORD_SCRYPT_N: expected a power of two');
  });

  it('name the cost they were made at, so one made at another cost still verifies', async () => {
    const cheap = await createPasswordHasher({ N: 1024 }).hash('correct horse');
    const dear = await createPasswordHasher({ N: 32_768 }).hash('correct horse');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(dear).toMatch(/^scrypt\$32768\$8\$1\$/);
    for (const stored of [cheap, dear]) {
      expect(await verifyPassword('correct horse', stored)).toBe(true);
      expect(await verifyPassword('correct horsf', stored)).toBe(false);
    }
    await expect(confirmPassword('battery staple', cheap)).rejects.toMatchObject({ status: 401 });
  });
});
