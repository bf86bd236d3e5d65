import { CallMessages } from '@mate/contracts';
import type { CallDevices } from './call-types';

const unavailable = (): never => {
  throw new Error(CallMessages.mediaFailed);
};

/**
 * Devices of an app rendered without a camera (tests of other screens): the call state still
 * works, and starting or answering a call fails as a refused camera does.
 */
export const noCallDevices: CallDevices = {
  getUserMedia: () => Promise.reject(new Error(CallMessages.mediaFailed)),
  createPeer: unavailable,
  createRecorder: unavailable,
};
