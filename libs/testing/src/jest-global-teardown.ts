import { stopRunContainers } from './lib/infra';

/** Jest `globalTeardown`: removes the containers jest-global-setup.ts started. */
export default stopRunContainers;
