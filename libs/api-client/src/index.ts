export * from './lib/errors';
export * from './lib/http';
export * from './lib/messages';
export * from './lib/auth';
export * from './lib/verification';
export * from './lib/sessions';
export * from './lib/profile';
export * from './lib/client';
