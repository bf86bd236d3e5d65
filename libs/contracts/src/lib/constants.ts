/** Business constants of the spec (000 §9, 001 §9). Servers enforce them; clients show them. */
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const PASSWORD_MIN_LENGTH = 8;
/** argon2 and bcrypt-era limits: a longer password is refused rather than silently truncated. */
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 100;

export const SIGNUP_MIN_AGE = 18;
export const SIGNUP_MAX_AGE = 120;
export const PROFILE_MIN_AGE = 18;
export const PROFILE_MAX_AGE = 120;
export const ONBOARDING_MIN_AGE = 18;
export const ONBOARDING_MAX_AGE = 99;
export const PREFERENCES_MIN_AGE = 18;
export const PREFERENCES_MAX_AGE = 99;
export const HEIGHT_MIN_CM = 100;
export const HEIGHT_MAX_CM = 250;
export const FILTER_HEIGHT_MIN_CM = 140;
export const FILTER_HEIGHT_MAX_CM = 220;
export const BIO_MAX_LENGTH = 500;
export const ONBOARDING_BIO_MIN_LENGTH = 20;
export const ONBOARDING_MAX_INTERESTS = 10;
export const DISTANCE_MIN_KM = 1;
export const DISTANCE_MAX_KM = 200;
export const DEFAULT_MAX_DISTANCE_KM = 50;
export const MAX_PHOTOS = 6;
export const PROFILE_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const ONBOARDING_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** Limits the spec leaves open (profile form, preference lists); enforced by profile-service. */
export const PROFILE_MAX_INTERESTS = 30;
export const INTEREST_MAX_LENGTH = 40;
export const LOCATION_MAX_LENGTH = 200;
export const OCCUPATION_MAX_LENGTH = 100;
export const EDUCATION_MAX_LENGTH = 100;
export const PREFERENCE_LIST_MAX_ITEMS = 20;

/** Token lifetimes (ARCHITECTURE §4). */
export const EMAIL_VERIFICATION_TOKEN_TTL = 24 * HOUR;
export const RESET_TOKEN_TTL = 15 * MINUTE;
export const EMAIL_CHANGE_TOKEN_TTL = 30 * MINUTE;
/** A session dies after this much inactivity (sliding). */
export const SESSION_IDLE_TTL = 7 * DAY;

/** Client timings of spec 000 §9 and 001 §9. */
export const PROFILE_FETCH_RETRY_DELAY = 1 * SECOND;
export const EMAIL_VERIFIED_REDIRECT_DELAY = 2 * SECOND;
export const PASSWORD_RESET_REDIRECT_DELAY = 3 * SECOND;
export const EMAIL_CHANGE_REDIRECT_DELAY = 3 * SECOND;
export const SESSIONS_REFRESH_INTERVAL = 30 * SECOND;
export const DASHBOARD_USER_ID_PREFIX_LENGTH = 8;

/** Browser storage keys (spec 000 §3): the token lives under two keys, kept equal. */
export const AUTH_TOKEN_KEY = 'auth_token';
export const AUTH_USER_KEY = 'auth_user';
export const LEGACY_TOKEN_KEY = 'token';

export const ROLE_ADMIN = 'admin';
export const ROLE_MEMBER = 'member';
export type Role = typeof ROLE_ADMIN | typeof ROLE_MEMBER;

/** Header carrying the request id across the gateway and services. */
export const REQUEST_ID_HEADER = 'x-request-id';
/**
 * The shared internal credential the gateway adds to every request it forwards (env
 * `INTERNAL_TOKEN`). Services believe `X-Forwarded-*` and serve `/internal/**` only when it
 * matches; the gateway drops any value a client sends (issue 7).
 */
export const INTERNAL_TOKEN_HEADER = 'x-mate-internal';
