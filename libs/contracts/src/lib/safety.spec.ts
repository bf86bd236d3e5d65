import { isPairBlocked, matchCreatedFactOf, orderedPairOf, pairBlockStateOf, pairIdOf, REPORT_REASONS, DEFAULT_REPORT_REASON } from './safety';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';

describe('safety contracts', () => {
  it('names a pair the same whoever acts', () => {
    expect(pairIdOf(A, B)).toBe(`${A}:${B}`);
    expect(pairIdOf(B, A)).toBe(`${A}:${B}`);
    expect(orderedPairOf(B, A)).toEqual([A, B]);
  });

  it('lists the six report reasons of spec 000 §3 with inappropriate_content first and default', () => {
    expect(REPORT_REASONS).toEqual(['inappropriate_content', 'harassment', 'fake_profile', 'spam', 'underage', 'other']);
    expect(DEFAULT_REPORT_REASON).toBe('inappropriate_content');
  });

  it('reads a pair event the way consumers store it: ids lower-cased and ordered, blockers kept to the pair', () => {
    const state = pairBlockStateOf({ pairId: 'x', userIds: [B.toUpperCase(), A] as [string, string], blockedBy: [B.toUpperCase(), C] });
    expect(state).toEqual({ userA: A, userB: B, blockedBy: [B] });
    expect(isPairBlocked(state)).toBe(true);
    expect(isPairBlocked(pairBlockStateOf({ pairId: 'x', userIds: [A, B], blockedBy: [] }))).toBe(false);
  });

  it('refuses a pair event that does not name two different members (the job is kept for redrive)', () => {
    expect(() => pairBlockStateOf({ pairId: 'x', userIds: [A, A], blockedBy: [] })).toThrow('does not name two members');
    expect(() => pairBlockStateOf({ pairId: 'x', userIds: [A, 'not-a-uuid'], blockedBy: [] })).toThrow();
    expect(() => pairBlockStateOf({ pairId: 'x', userIds: null as unknown as [string, string], blockedBy: [] })).toThrow();
  });

  it('reads match.created as chat and safety use it, and refuses what names no pair, match or time', () => {
    const M = '44444444-4444-4444-8444-444444444444';
    const at = '2026-11-23T07:00:00.000Z';
    expect(matchCreatedFactOf({ matchId: M.toUpperCase(), userIds: [B, A.toUpperCase()], createdAt: at, pairVersion: 2 })).toEqual({
      matchId: M,
      userA: A,
      userB: B,
      matchedAt: new Date(at),
      pairVersion: 2,
    });
    expect(matchCreatedFactOf({ matchId: M, userIds: [A, B], createdAt: at })?.pairVersion).toBeNull();
    expect(matchCreatedFactOf({ matchId: M, userIds: [A, B], createdAt: at, pairVersion: -1 })?.pairVersion).toBeNull();
    expect(matchCreatedFactOf({ matchId: M, userIds: [A, A], createdAt: at })).toBeNull();
    expect(matchCreatedFactOf({ matchId: 'nope', userIds: [A, B], createdAt: at })).toBeNull();
    expect(matchCreatedFactOf({ matchId: M, userIds: [A, B], createdAt: 'yesterday' })).toBeNull();
  });
});
