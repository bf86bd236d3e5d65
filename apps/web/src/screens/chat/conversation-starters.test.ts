import { describe, expect, it } from 'vitest';
import { conversationStarters, type StarterProfile } from './conversation-starters';

const profile = (overrides: Partial<StarterProfile> = {}): StarterProfile => ({
  interests: [],
  location: null,
  lookingFor: null,
  ...overrides,
});

describe('conversationStarters', () => {
  it('starts with the shared interests, in the other member’s order, one question each', () => {
    const starters = conversationStarters(
      profile({ interests: ['Music', 'hiking', 'Travel', 'Art'], location: 'Lisbon', lookingFor: 'casual' }),
      profile({ interests: ['Cooking', 'Hiking', 'Music'], location: 'Lisbon', lookingFor: 'casual' }),
      'Sam',
    );
    expect(starters).toEqual([
      "You're into Hiking too! What got you started?",
      "What's your favourite thing about Music?",
      "Another Lisbon local! What's your favourite spot in town?",
    ]);
  });

  it('fills three from shared interests alone when there are three or more', () => {
    const interests = ['Art', 'Yoga', 'Food', 'Pets'];
    const starters = conversationStarters(
      profile({ interests, location: 'Paris' }),
      profile({ interests, location: 'Paris' }),
      'Sam',
    );
    expect(starters).toHaveLength(3);
    expect(starters.every((line) => /Art|Yoga|Food/.test(line))).toBe(true);
    expect(new Set(starters).size).toBe(3);
  });

  it('then the same city (the part before the comma, any case), then the same looking-for', () => {
    const starters = conversationStarters(
      profile({ interests: ['Gaming'], location: 'Lisbon, Portugal', lookingFor: 'relationship' }),
      profile({ interests: ['Yoga'], location: 'lisbon', lookingFor: 'long-term' }),
      'Sam',
    );
    expect(starters).toEqual([
      "Another lisbon local! What's your favourite spot in town?",
      "Looks like we're both after something long-term. What does a great first date look like to you?",
      "Hi Sam! How's your week going?",
    ]);
  });

  it('always gives three, with general questions when nothing is shared or a profile is unknown', () => {
    const general = [
      "Hi Sam! How's your week going?",
      "What's the best thing you've done lately?",
      'If you could be anywhere this weekend, where would it be?',
    ];
    expect(
      conversationStarters(
        profile({ interests: ['Art'], location: 'Oslo', lookingFor: 'casual' }),
        profile({ interests: ['Yoga'], location: 'Rome', lookingFor: 'friendship' }),
        'Sam',
      ),
    ).toEqual(general);
    expect(conversationStarters(null, profile({ interests: ['Art'] }), 'Sam')).toEqual(general);
    expect(conversationStarters(profile(), null, 'Sam')).toEqual(general);
  });
});
