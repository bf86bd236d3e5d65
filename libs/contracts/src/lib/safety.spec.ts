import { orderedPairOf, pairIdOf, REPORT_REASONS, DEFAULT_REPORT_REASON } from './safety';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

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
});
