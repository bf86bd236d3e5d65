import { newLikePush, newMatchPush, newMessagePush, photoRejectedPush, reportReceivedPush } from '../push-texts';

const other = '0b6f5bd4-1d7e-4a57-9a3b-5c2b3e0f4a11';

describe('push texts', () => {
  it("tells the owner a photo was removed, with the admin's reason on one line", () => {
    expect(photoRejectedPush(other, 'Nudity\nis not allowed')).toEqual({
      kind: 'admin',
      title: 'One of your photos was removed',
      body: 'Reason: Nudity is not allowed',
      url: '/profile',
      tag: `photo:${other}`,
      count: 1,
    });
    expect(photoRejectedPush(other, null).body).toBe('It did not meet our community guidelines.');
    expect(photoRejectedPush(other, 'x'.repeat(300)).body).toBe(`Reason: ${'x'.repeat(119)}…`);
  });

  it('names the other member of a match, or nobody with private previews or no name', () => {
    expect(newMatchPush(other, 'Ana', false)).toMatchObject({
      title: "It's a Match!",
      body: 'You and Ana liked each other.',
      url: `/chat/${other}`,
    });
    expect(newMatchPush(other, 'Ana', true).body).toBe('You have a new match. Say hello!');
    expect(newMatchPush(other, null, false).body).toBe('You have a new match. Say hello!');
    expect(newMatchPush(other, ' \n\t ', false).body).toBe('You have a new match. Say hello!');
  });

  it('shows a name on one line, at most 50 characters', () => {
    expect(newMessagePush(other, 'Ana\nBanana\u0000\u009b', 1, false).title).toBe(
      'New message from Ana Banana',
    );
    const long = 'x'.repeat(80);
    expect(newMessagePush(other, long, 1, false).title).toBe(`New message from ${'x'.repeat(49)}…`);
  });

  it('says how many messages a collapsed burst stands for, one tag per conversation', () => {
    expect(newMessagePush(other, 'Ana', 1, false)).toMatchObject({
      body: 'Open the chat to read it.',
      count: 1,
      tag: `chat:${other}`,
    });
    expect(newMessagePush(other, 'Ana', 4, false)).toMatchObject({
      body: '4 new messages',
      count: 4,
      tag: `chat:${other}`,
    });
    expect(newMessagePush(other, 'Ana', 2, true).title).toBe('New message');
  });

  it('never names a liker, and thanks a reporter', () => {
    expect(newLikePush()).toEqual({
      kind: 'new_like',
      title: 'Someone likes you',
      body: 'Keep discovering: it could be a match.',
      url: '/discover',
      tag: 'likes',
      count: 1,
    });
    expect(reportReceivedPush('r1')).toMatchObject({
      kind: 'safety',
      body: 'Thanks for your report. Our team will review it.',
      url: '/safety',
    });
  });
});
