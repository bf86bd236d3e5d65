export * from './sql';
export * from './event-status';
export * from './redrive';
export * from './replay';
export * from './pruning';
export * from './event-metrics';
export * from './event-maintenance';
