/**
 * POST /api/profile/me/complete-onboarding takes no fields. Declaring the empty body still lets
 * the global validation pipe refuse unknown ones with 400 instead of ignoring them.
 */
export class CompleteOnboardingDto {}
