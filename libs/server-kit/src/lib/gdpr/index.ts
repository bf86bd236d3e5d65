export * from './member-erasure';
export * from './member-export';
