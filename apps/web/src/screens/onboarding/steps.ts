/** Spec 000 §2: the onboarding wizard has these 5 steps, in this order. */
export const ONBOARDING_STEPS = ['Welcome', 'Basic Info', 'Photo', 'About You', 'Preferences'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];
