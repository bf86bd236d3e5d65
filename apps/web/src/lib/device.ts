export type DeviceKind = 'phone' | 'tablet' | 'desktop';

const TABLET = /\b(ipad|tablet|kindle|silk|playbook|nexus (7|9|10)|sm-t\d+)\b/i;
const PHONE = /\b(iphone|ipod|mobile|phone|blackberry|opera mini|iemobile)\b/i;
const ANDROID = /\bandroid\b/i;

/** Spec 001 §2: the session icon is guessed from the device description. */
export function guessDeviceKind(deviceInfo: string | null | undefined): DeviceKind {
  const text = deviceInfo ?? '';
  if (TABLET.test(text)) return 'tablet';
  if (PHONE.test(text)) return 'phone';
  // Android without "Mobile" in the description is a tablet by Google's own convention.
  if (ANDROID.test(text)) return 'tablet';
  return 'desktop';
}
