export * from './lib/infra';
export * from './lib/maildev';
