import {
  ALL_LOOKING_FOR,
  EDUCATION_OPTIONS,
  RELATIONSHIP_GOAL_OPTIONS,
  educationValueOf,
  relationshipGoalsOf,
} from './profile';

describe('filter mappings of spec 001 §3 onto the profile (ADR 0003)', () => {
  it('maps every stored lookingFor, both readings, onto relationship goal values', () => {
    const goals = new Set<string>(RELATIONSHIP_GOAL_OPTIONS.map((o) => o.value));
    for (const lookingFor of ALL_LOOKING_FOR) {
      expect(relationshipGoalsOf(lookingFor).length).toBeGreaterThan(0);
      for (const goal of relationshipGoalsOf(lookingFor)) expect(goals).toContain(goal);
    }
    expect(relationshipGoalsOf('long-term')).toEqual(['long_term', 'marriage']);
    expect(relationshipGoalsOf('relationship')).toEqual(['long_term', 'marriage']);
    expect(relationshipGoalsOf('short-term')).toEqual(['casual']);
    expect(relationshipGoalsOf('not-sure')).toEqual(['not_sure']);
    // Every goal a member can filter on is reachable from some lookingFor.
    const reachable = new Set(ALL_LOOKING_FOR.flatMap((l) => relationshipGoalsOf(l)));
    expect(reachable).toEqual(goals);
    expect(relationshipGoalsOf(null)).toEqual([]);
    expect(relationshipGoalsOf('fling')).toEqual([]);
  });

  it('maps education labels and values onto the option values, other text onto other, none onto null', () => {
    for (const option of EDUCATION_OPTIONS) {
      expect(educationValueOf(option.label)).toBe(option.value);
      expect(educationValueOf(` ${option.label.toUpperCase()} `)).toBe(option.value);
      expect(educationValueOf(option.value)).toBe(option.value);
    }
    expect(educationValueOf('Bachelor\u2019s Degree')).toBe('bachelor');
    expect(educationValueOf('MIT, Computer Science')).toBe('other');
    expect(educationValueOf('')).toBeNull();
    expect(educationValueOf('   ')).toBeNull();
    expect(educationValueOf(null)).toBeNull();
  });
});
