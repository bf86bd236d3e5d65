export * from './lib/infra';
export * from './lib/maildev';
export * from './lib/redis-server';
export * from './lib/member-traces';
export * from './lib/redis-cluster';
export * from './lib/postgres-cluster';
