/** Test helpers for services built on server-kit (used only by test files). */
export * from './testing/service-app';
export * from './testing/service-test-bed';
export * from './testing/service-process';
export * from './testing/managed-process';
export * from './testing/forwarded';
export * from './testing/gateway-test-bed';
export * from './testing/suspensions-in-kit-switch';
export * from './testing/pairs-in-kit-switch';
export * from './testing/blocked-pairs-in-kit-switch';
export * from './testing/database-topology';
