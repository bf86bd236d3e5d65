export * from './lib/errors';
export * from './lib/constants';
export * from './lib/auth';
export * from './lib/profile';
export * from './lib/events';
export * from './lib/jobs';
export * from './lib/sockets';
export * from './lib/ports';
