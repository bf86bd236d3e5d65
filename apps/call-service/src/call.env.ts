import { DatabaseEnv } from '@mate/server-kit';

/** Settings of call-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class CallEnv extends DatabaseEnv {}
