import { API_ERROR_CODES, ERROR_CODE_ENUMS } from './error-codes';

describe('error codes', () => {
  it('gives each cause its own code: no value is in two enums, or twice in one', () => {
    const owners = new Map<string, string[]>();
    for (const [owner, codes] of Object.entries(ERROR_CODE_ENUMS)) {
      for (const code of Object.values(codes)) owners.set(code, [...(owners.get(code) ?? []), owner]);
    }
    expect([...owners].filter(([, by]) => by.length > 1)).toEqual([]);
    expect(new Set(API_ERROR_CODES).size).toBe(API_ERROR_CODES.length);
    expect(API_ERROR_CODES).toEqual(expect.arrayContaining([...owners.keys()]));
  });

  it('writes every code in upper snake case, as clients match them', () => {
    expect(API_ERROR_CODES.filter((code) => !/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(code))).toEqual([]);
  });
});
