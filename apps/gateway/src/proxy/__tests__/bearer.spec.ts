import { createSecretKey } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { BearerVerifier } from '../bearer';

const SECRET = 'bearer-spec-secret-bearer-spec-secret';
const signer = new JwtService({ secret: createSecretKey(Buffer.from(SECRET, 'utf8')) });
const sign = (claims: object, options: { expiresIn?: number; notBefore?: number; secret?: string } = {}) =>
  signer.sign(claims, {
    algorithm: 'HS256',
    ...(options.expiresIn !== undefined ? { expiresIn: options.expiresIn } : {}),
    ...(options.notBefore !== undefined ? { notBefore: options.notBefore } : {}),
    ...(options.secret ? { secret: options.secret } : {}),
  });
const claims = { sub: 'user-1', sid: 'session-1', role: 'member' };

describe('BearerVerifier', () => {
  it('answers the claims of a valid token, and remembers it until its exp', () => {
    const verifier = new BearerVerifier(SECRET);
    const token = sign(claims, { expiresIn: 60 });
    const now = Date.now();
    expect(verifier.claims(`Bearer ${token}`, now)).toMatchObject(claims);
    expect(verifier.remembered()).toBe(1);
    expect(verifier.claims(`bearer \t${token} `, now + 1_000)).toMatchObject(claims);
    // Expired once the clock reaches exp, remembered or not.
    expect(verifier.claims(`Bearer ${token}`, now + 61_000)).toBeNull();
    expect(verifier.remembered()).toBe(0);
    expect(verifier.claims(`Bearer ${token}`, now + 1_000)).toMatchObject(claims);
  });

  it('refuses, and does not remember, tokens that do not verify or name no user and session', () => {
    const verifier = new BearerVerifier(SECRET);
    const good = sign(claims, { expiresIn: 60 });
    const [header, payload] = good.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'user-2', exp: 9_999_999_999 })).toString('base64url')}.${good.split('.')[2]}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const header of [
      undefined,
      '',
      good,
      `Basic ${good}`,
      `Bearer ${forged}`,
      `Bearer ${unsigned}`,
      `Bearer ${sign(claims, { expiresIn: 60, secret: 'another-secret-another-secret-another' })}`,
      `Bearer ${sign({ sub: 'user-1', role: 'member' }, { expiresIn: 60 })}`,
      `Bearer ${sign({ sid: 'session-1', role: 'member' }, { expiresIn: 60 })}`,
      `Bearer ${sign(claims, { expiresIn: -10 })}`,
    ]) {
      expect(verifier.claims(header)).toBeNull();
    }
    expect(verifier.remembered()).toBe(0);
    // A remembered token does not vouch for another text with its signature.
    expect(verifier.claims(`Bearer ${good}`)).toMatchObject(claims);
    expect(verifier.claims(`Bearer ${forged}`)).toBeNull();
  });

  it('checks tokens without exp, or with nbf, every time', () => {
    const verifier = new BearerVerifier(SECRET);
    expect(verifier.claims(`Bearer ${sign(claims)}`)).toMatchObject(claims);
    expect(verifier.claims(`Bearer ${sign(claims, { expiresIn: 60, notBefore: 0 })}`)).toMatchObject(claims);
    expect(verifier.remembered()).toBe(0);
    expect(verifier.claims(`Bearer ${sign(claims, { expiresIn: 60, notBefore: 30 })}`)).toBeNull();
  });

  it('remembers at most its maximum, the oldest going first', () => {
    const verifier = new BearerVerifier(SECRET, 3);
    const tokens = [1, 2, 3, 4, 5].map((n) => sign({ ...claims, sid: `session-${n}` }, { expiresIn: 60 }));
    for (const token of tokens)
      expect(verifier.claims(`Bearer ${token}`)).toMatchObject({ sid: expect.any(String) });
    expect(verifier.remembered()).toBe(3);
    expect(verifier.claims(`Bearer ${tokens[0]}`)).toMatchObject({ sid: 'session-1' });
    expect(verifier.remembered()).toBe(3);
  });
});
