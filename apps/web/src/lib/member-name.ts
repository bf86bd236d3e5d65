/** Spec 000 §2: a member shown without a name reads 'Unknown User' (Messages rows, cards, the match popup). */
export const UNKNOWN_USER = 'Unknown User';

/** The name to show for another member: their name, or 'Unknown User' when it is empty. */
export function memberName(name: string | null | undefined): string {
  return name?.trim() || UNKNOWN_USER;
}
