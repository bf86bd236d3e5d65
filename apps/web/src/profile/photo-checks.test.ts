import { describe, expect, it } from 'vitest';
import { checkOnboardingPhoto, checkProfilePhoto } from './photo-checks';

const MB = 1024 * 1024;
const file = (type: string, size = 1000) => ({ type, size });

describe('profile photo checks (spec 000 §5)', () => {
  it("takes jpeg, jpg, png and webp up to 5 MB", () => {
    for (const type of ['image/jpeg', 'image/jpg', 'image/png', 'image/webp']) {
      expect(checkProfilePhoto(file(type))).toBeNull();
    }
    expect(checkProfilePhoto(file('image/png', 5 * MB))).toBeNull();
  });

  it("refuses what is not an image: 'Please select an image file'", () => {
    expect(checkProfilePhoto(file('application/pdf'))).toBe('Please select an image file');
    expect(checkProfilePhoto(file(''))).toBe('Please select an image file');
    expect(checkProfilePhoto(file('image/gif'))).toBe('Please select an image file');
  });

  it("refuses more than 5 MB: 'Image must be less than 5MB'", () => {
    expect(checkProfilePhoto(file('image/jpeg', 5 * MB + 1))).toBe('Image must be less than 5MB');
  });
});

describe('onboarding photo checks (spec 000 §5)', () => {
  it('takes JPEG, PNG and WebP up to 10 MB', () => {
    expect(checkOnboardingPhoto(file('image/jpeg', 10 * MB))).toBeNull();
    expect(checkOnboardingPhoto(file('image/png', 6 * MB))).toBeNull();
    expect(checkOnboardingPhoto(file('image/webp'))).toBeNull();
  });

  it("refuses other types: 'Only JPEG, PNG, and WebP images are allowed'", () => {
    expect(checkOnboardingPhoto(file('image/gif'))).toBe('Only JPEG, PNG, and WebP images are allowed');
    expect(checkOnboardingPhoto(file('text/plain'))).toBe('Only JPEG, PNG, and WebP images are allowed');
  });

  it("refuses more than 10 MB: 'Photo must be less than 10MB'", () => {
    expect(checkOnboardingPhoto(file('image/jpeg', 10 * MB + 1))).toBe('Photo must be less than 10MB');
  });
});
