/** Every key another member sees in a profile (no email, coordinates, onboarding or verification state). */
export const PUBLIC_PROFILE_KEYS = [
  'age',
  'bio',
  'education',
  'gender',
  'height',
  'id',
  'interests',
  'location',
  'lookingFor',
  'name',
  'occupation',
  'photos',
  'profilePicture',
  'userId',
].sort();
