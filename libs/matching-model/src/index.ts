export * from './lib/profile';
export * from './lib/features';
export * from './lib/model';
export * from './lib/rank';
export * from './lib/fit';
export * from './lib/metrics';
export * from './lib/rng';
