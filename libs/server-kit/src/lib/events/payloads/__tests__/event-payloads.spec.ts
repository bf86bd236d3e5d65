import { randomUUID } from 'node:crypto';
import {
  EVENT_CATALOGUE,
  isPairBlocked,
  pairIdOf,
  type EventName,
  type EventPayloads,
} from '@mate/contracts';
import { EVENT_PAYLOAD_CLASSES, readEventPayload } from '../event-payloads';

const id = () => randomUUID();
const at = '2026-11-30T09:00:00.000Z';

function read<N extends EventName>(name: N, payload: unknown): EventPayloads[N] {
  const reading = readEventPayload(name, payload);
  if (!reading.readable) throw new Error(`${name} unreadable: ${reading.fields.join(', ')}`);
  return reading.payload;
}
const fieldsBroken = (name: EventName, payload: unknown) => {
  const reading = readEventPayload(name, payload);
  return reading.readable ? [] : reading.fields;
};

describe('domain event payload classes', () => {
  it('has exactly one class per catalogue entry, and none for a name the catalogue lacks', () => {
    expect(Object.keys(EVENT_PAYLOAD_CLASSES).sort()).toEqual(Object.keys(EVENT_CATALOGUE).sort());
    const classes = Object.values(EVENT_PAYLOAD_CLASSES);
    expect(new Set(classes).size).toBe(classes.length);
  });

  it('lower-cases ids and orders a pair, whatever the spelling the producer used', () => {
    const [a, b] = [id(), id()].sort();
    const match = read('match.created', {
      matchId: id().toUpperCase(),
      userIds: [b.toUpperCase(), a],
      createdAt: at,
    });
    expect(match.userIds).toEqual([a, b]);
    expect(match.matchId).toBe(match.matchId.toLowerCase());
    const blocked = read('user.blocked', {
      pairId: pairIdOf(b, a).toUpperCase(),
      userIds: [b, a.toUpperCase()],
      blockedBy: [b.toUpperCase(), a, id()],
      blockerId: b.toUpperCase(),
      blockedId: a,
      endedMatchId: null,
      blockedAt: at,
    });
    expect(blocked).toMatchObject({
      pairId: pairIdOf(a, b),
      userIds: [a, b],
      blockedBy: [a, b],
      blockerId: b,
      blockedId: a,
    });
  });

  it('fails closed on a block whose state cannot be read, and reads an unreadable ended match as none', () => {
    const [a, b] = [id(), id()].sort();
    const pair = { pairId: pairIdOf(a, b), userIds: [a, b], blockerId: b, blockedId: a };
    expect(
      read('user.blocked', { ...pair, blockedBy: 'everyone', endedMatchId: 'nope', blockedAt: at }),
    ).toMatchObject({
      blockedBy: [b],
      endedMatchId: null,
    });
    expect(read('user.blocked', { ...pair, endedMatchId: null, blockedAt: at }).blockedBy).toEqual([b]);
    expect(read('user.unblocked', { ...pair, unblockedAt: at }).blockedBy).toEqual([]);
  });

  it('reads every schema version the catalogue has known: older envelopes lack the optional fields', () => {
    const userId = id();
    expect(read('user.verified', { userId, verifiedAt: at })).toEqual({ userId, verifiedAt: at });
    expect(read('user.verified', { userId, verifiedAt: at, name: 'Ann', age: 30 })).toMatchObject({
      name: 'Ann',
      age: 30,
    });
    const [a, b] = [id(), id()].sort();
    expect(
      read('match.created', { matchId: id(), userIds: [a, b], createdAt: at }).pairVersion,
    ).toBeUndefined();
    const profile = read('profile.updated', {
      userId,
      name: 'Ann',
      age: 30,
      gender: null,
      lookingFor: null,
      interests: [],
      height: null,
      education: null,
      latitude: null,
      longitude: null,
      locationText: null,
      hasPhoto: false,
      profilePicture: null,
      isVerified: false,
      onboardingCompleted: true,
      updatedAt: at,
    });
    expect(profile.smoking).toBeUndefined();
    expect(profile.photos).toBeUndefined();
  });

  // Moved from contracts' safety.spec.ts with pairBlockStateOf and matchCreatedFactOf, which the
  // consumer's reading replaced.
  describe('pair events and match.created as every consumer gets them', () => {
    const A = '11111111-1111-4111-8111-111111111111';
    const B = '22222222-2222-4222-8222-222222222222';
    const C = '33333333-3333-4333-8333-333333333333';
    const M = '44444444-4444-4444-8444-444444444444';
    const unblocked = (userIds: unknown, blockedBy: unknown) =>
      ({ pairId: 'x', userIds, blockedBy, blockerId: A, blockedId: B, unblockedAt: at }) as const;

    it('reads a pair event the way consumers store it: ids lower-cased and ordered, blockers kept to the pair', () => {
      const state = read('user.unblocked', unblocked([B.toUpperCase(), A], [B.toUpperCase(), C]));
      expect(state).toMatchObject({ userIds: [A, B], blockedBy: [B] });
      expect(isPairBlocked(state)).toBe(true);
      expect(isPairBlocked(read('user.unblocked', unblocked([A, B], [])))).toBe(false);
    });

    it('refuses a pair event that does not name two different members', () => {
      expect(fieldsBroken('user.unblocked', unblocked([A, A], []))).toContain('userIds');
      expect(fieldsBroken('user.unblocked', unblocked([A, 'not-a-uuid'], []))).toContain('userIds');
      expect(fieldsBroken('user.unblocked', unblocked(null, []))).toContain('userIds');
    });

    it('reads match.created as chat, call and safety use it, and refuses what names no pair, match or time', () => {
      expect(
        read('match.created', {
          matchId: M.toUpperCase(),
          userIds: [B, A.toUpperCase()],
          createdAt: at,
          pairVersion: 2,
        }),
      ).toEqual({
        matchId: M,
        userIds: [A, B],
        createdAt: at,
        pairVersion: 2,
      });
      expect(
        read('match.created', { matchId: M, userIds: [A, B], createdAt: at }).pairVersion,
      ).toBeUndefined();
      expect(
        read('match.created', { matchId: M, userIds: [A, B], createdAt: at, pairVersion: -1 }).pairVersion,
      ).toBeUndefined();
      expect(fieldsBroken('match.created', { matchId: M, userIds: [A, A], createdAt: at })).toEqual([
        'userIds',
      ]);
      expect(fieldsBroken('match.created', { matchId: 'nope', userIds: [A, B], createdAt: at })).toEqual([
        'matchId',
      ]);
      expect(fieldsBroken('match.created', { matchId: M, userIds: [A, B], createdAt: 'yesterday' })).toEqual([
        'createdAt',
      ]);
    });
  });

  it("reads a value of a newer producer's list as this build's fallback", () => {
    const report = read('report.created', {
      reportId: id(),
      reporterId: id(),
      reportedId: id(),
      reason: 'doxxing',
      hasDetails: false,
      createdAt: at,
    });
    expect(report.reason).toBe('other');
  });

  it('names the fields an unreadable payload broke, never their values', () => {
    expect(
      fieldsBroken('match.created', { matchId: 'nope', userIds: [id(), 'x'], createdAt: 'yesterday' }).sort(),
    ).toEqual(['createdAt', 'matchId', 'userIds']);
    const a = id();
    expect(
      fieldsBroken('match.created', { matchId: id(), userIds: [a, a.toUpperCase()], createdAt: at }),
    ).toEqual(['userIds']);
    const fields = fieldsBroken('user.email_changed', {
      userId: id(),
      oldEmail: 1,
      newEmail: 'secret@mate.test',
      changedAt: at,
    });
    expect(fields).toEqual(['oldEmail']);
    expect(JSON.stringify(fields)).not.toContain('secret');
    expect(fieldsBroken('user.deleted', null)).toEqual(['payload']);
    expect(
      fieldsBroken('user.suspended', { userId: id(), suspended: false, reason: 'Spam', suspendedAt: at }),
    ).toEqual(['suspended']);
  });
});
