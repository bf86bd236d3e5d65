import { DatabaseEnv } from '@mate/server-kit';

/** Settings of chat-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class ChatEnv extends DatabaseEnv {}
