import { DatabaseEnv } from '@mate/server-kit';

/**
 * Settings of profile-service. Only the shared ones so far (PORT, DATABASE_URL, REDIS_URL,
 * KEY_PREFIX, JWT_SECRET, ...); photo storage and geocoding add theirs here.
 */
export class ProfileEnv extends DatabaseEnv {}
