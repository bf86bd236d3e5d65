import { DatabaseEnv } from '@mate/server-kit';

/** Settings of safety-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class SafetyEnv extends DatabaseEnv {}
