import type { PushPayload } from '@mate/contracts';

/**
 * What each push says (issue 12). Short enough for a lock screen. Never a message's text (events
 * carry none), never a liker's name before a match, and with private previews no name at all.
 */
export type PushContent = Omit<PushPayload, 'sentAt'>;

/** Control characters (C0, DEL, C1): a name shows on one line. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/** A name as a lock screen shows it: one line, at most 50 characters; none when there is no usable name. */
function displayName(name: string | null): string | null {
  const clean = (name ?? '').replace(CONTROL_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  if (!clean) return null;
  return [...clean].length > 50 ? `${[...clean].slice(0, 49).join('')}…` : clean;
}

export function newMatchPush(
  otherId: string,
  otherName: string | null,
  privatePreviews: boolean,
): PushContent {
  const name = privatePreviews ? null : displayName(otherName);
  return {
    kind: 'new_match',
    title: "It's a Match!",
    body: name ? `You and ${name} liked each other.` : 'You have a new match. Say hello!',
    url: `/chat/${otherId}`,
    tag: `match:${otherId}`,
    count: 1,
  };
}

/** One notification per conversation: a newer burst replaces the older (same tag). */
export function newMessagePush(
  senderId: string,
  senderName: string | null,
  count: number,
  privatePreviews: boolean,
): PushContent {
  const name = privatePreviews ? null : displayName(senderName);
  const title = name ? `New message from ${name}` : 'New message';
  return {
    kind: 'new_message',
    title,
    body: count > 1 ? `${count} new messages` : 'Open the chat to read it.',
    url: `/chat/${senderId}`,
    tag: `chat:${senderId}`,
    count,
  };
}

/** Who liked is not said: a member learns it only by a match. */
export function newLikePush(): PushContent {
  return {
    kind: 'new_like',
    title: 'Someone likes you',
    body: 'Keep discovering: it could be a match.',
    url: '/discover',
    tag: 'likes',
    count: 1,
  };
}

export function reportReceivedPush(reportId: string): PushContent {
  return {
    kind: 'safety',
    title: 'Report received',
    body: 'Thanks for your report. Our team will review it.',
    url: '/safety',
    tag: `report:${reportId}`,
    count: 1,
  };
}

/** A reason as a lock screen shows it: one line, at most 120 characters. */
function oneLine(text: string | null, max: number): string | null {
  const clean = (text ?? '').replace(CONTROL_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  if (!clean) return null;
  return [...clean].length > max ? `${[...clean].slice(0, max - 1).join('')}…` : clean;
}

/** An admin rejected one of the member's photos (issue 13): it is gone from their profile; the reason is the admin's. */
export function photoRejectedPush(photoId: string, reason: string | null): PushContent {
  const why = oneLine(reason, 120);
  return {
    kind: 'admin',
    title: 'One of your photos was removed',
    body: why ? `Reason: ${why}` : 'It did not meet our community guidelines.',
    url: '/profile',
    tag: `photo:${photoId}`,
    count: 1,
  };
}
