import { DatabaseEnv } from '@mate/server-kit';

/** Settings of matching-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class MatchingEnv extends DatabaseEnv {}
