/** The side of a profile the starters read. */
export interface StarterProfile {
  interests: readonly string[];
  location: string | null;
  lookingFor: string | null;
}

export const STARTER_COUNT = 3;

/** A shared interest gets one of these in turn, so three shared interests read as three questions. */
const INTEREST_STARTERS = [
  (interest: string) => `You're into ${interest} too! What got you started?`,
  (interest: string) => `What's your favourite thing about ${interest}?`,
  (interest: string) => `Fellow ${interest} fan here. Any recommendations for me?`,
];

/** What each looking-for value (both lists of spec 000 §3) reads as in a sentence. */
const LOOKING_FOR_PHRASES: Record<string, string> = {
  relationship: 'something long-term',
  'long-term': 'something long-term',
  'short-term': 'something short-term',
  casual: 'something casual',
  friendship: 'new friends',
};

/** Values that mean the same goal, so 'relationship' and 'long-term' count as shared. */
const SAME_GOAL: Record<string, string> = { relationship: 'long-term' };

function goalOf(value: string | null): string | null {
  const key = value?.trim().toLowerCase() || null;
  return key ? (SAME_GOAL[key] ?? key) : null;
}

/** 'Lisbon, Portugal' and 'lisbon' are the same city; only the part before the first comma counts. */
function cityOf(location: string | null): string | null {
  const city = location?.split(',')[0]?.trim();
  return city ? city : null;
}

function lookingForStarter(goal: string): string {
  if (goal === 'not-sure') return "Neither of us is quite sure what we're looking for yet. What would make it click for you?";
  const phrase = LOOKING_FOR_PHRASES[goal] ?? goal.replace(/-/g, ' ');
  return `Looks like we're both after ${phrase}. What does a great first date look like to you?`;
}

/**
 * Three opening lines for a new match, from what the two share: shared interests first (in the
 * other member's order), then the same city, then the same looking-for, then general questions,
 * so there are always three. Pure: the chat's empty state shows them as one-tap buttons.
 */
export function conversationStarters(
  mine: StarterProfile | null,
  theirs: StarterProfile | null,
  theirName: string,
): string[] {
  const starters: string[] = [];
  if (mine && theirs) {
    const myInterests = new Set(mine.interests.map((interest) => interest.trim().toLowerCase()));
    const shared = theirs.interests.filter((interest) => myInterests.has(interest.trim().toLowerCase()));
    shared.slice(0, STARTER_COUNT).forEach((interest, i) => starters.push(INTEREST_STARTERS[i](interest.trim())));

    const myCity = cityOf(mine.location);
    const theirCity = cityOf(theirs.location);
    if (myCity && theirCity && myCity.toLowerCase() === theirCity.toLowerCase())
      starters.push(`Another ${theirCity} local! What's your favourite spot in town?`);

    const goal = goalOf(mine.lookingFor);
    if (goal && goal === goalOf(theirs.lookingFor)) starters.push(lookingForStarter(goal));
  }
  const general = [
    `Hi ${theirName}! How's your week going?`,
    "What's the best thing you've done lately?",
    'If you could be anywhere this weekend, where would it be?',
  ];
  for (const line of general) starters.push(line);
  return starters.slice(0, STARTER_COUNT);
}
