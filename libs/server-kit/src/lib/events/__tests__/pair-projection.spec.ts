import { projectedMatchOf, projectedPairEventOf } from '../pair-projection';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const MATCH = '00000000-0000-4000-8000-0000000000ff';

describe('pair projection', () => {
  it('reads match.created as the match a projection records', () => {
    const at = '2026-01-02T03:04:05.678Z';
    expect(projectedMatchOf({ matchId: MATCH, userIds: [A, B], createdAt: at, pairVersion: 4 })).toEqual({
      matchId: MATCH,
      a: A,
      b: B,
      matchedAt: new Date(at),
      pairVersion: 4,
    });
    expect(projectedMatchOf({ matchId: MATCH, userIds: [A, B], createdAt: at }).pairVersion).toBeNull();
  });

  it('reads each pair event with its own time, its ended match and the envelope version', () => {
    const at = '2026-01-02T03:04:05.678Z';
    const pair = { pairId: `${A}:${B}`, userIds: [A, B] as [string, string] };
    expect(
      projectedPairEventOf(
        'user.blocked',
        { ...pair, blockedBy: [A], blockerId: A, blockedId: B, blockedAt: at, endedMatchId: MATCH },
        { aggregateVersion: 7 },
      ),
    ).toEqual({ a: A, b: B, blocked: true, at: new Date(at), version: 7, endedMatchId: MATCH });
    expect(
      projectedPairEventOf(
        'user.unblocked',
        { ...pair, blockedBy: [], blockerId: A, blockedId: B, unblockedAt: at },
        {},
      ),
    ).toEqual({ a: A, b: B, blocked: false, at: new Date(at), version: null, endedMatchId: null });
    expect(
      projectedPairEventOf(
        'match.ended',
        { ...pair, blockedBy: [], matchId: MATCH, endedBy: A, reason: 'unmatch', endedAt: at },
        { aggregateVersion: 2 },
      ),
    ).toEqual({ a: A, b: B, blocked: false, at: new Date(at), version: 2, endedMatchId: MATCH });
  });
});
