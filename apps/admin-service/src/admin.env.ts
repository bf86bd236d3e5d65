import { DatabaseEnv } from '@mate/server-kit';

/** Settings of admin-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class AdminEnv extends DatabaseEnv {}
