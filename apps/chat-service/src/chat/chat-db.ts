/** The pair as the conversation table stores it (member_a < member_b; uuids compare as their text). */
export const orderedPair = (x: string, y: string): [string, string] => (x < y ? [x, y] : [y, x]);

/** The open-conversation rule in one place: later issues close conversations (unmatch, block). */
export const OPEN = 'closed_at IS NULL';
