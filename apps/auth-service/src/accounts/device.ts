import { UAParser } from 'ua-parser-js';

/**
 * A readable device description from a User-Agent ("Chrome 131 on macOS", "Mobile Safari 18 on
 * iOS 18 (mobile iPhone)"). The web app guesses the phone/tablet/desktop icon from these words.
 */
export function describeDevice(userAgent: string | undefined): string {
  if (!userAgent) return 'Unknown device';
  const { browser, os, device } = UAParser(userAgent);
  const browserName = browser.name ? `${browser.name}${browser.major ? ` ${browser.major}` : ''}` : null;
  const osName = os.name ? `${os.name}${os.version ? ` ${os.version}` : ''}` : null;
  let text = browserName && osName ? `${browserName} on ${osName}` : browserName ?? osName ?? userAgent.slice(0, 80);
  if (device.type === 'mobile' || device.type === 'tablet') {
    text += ` (${device.type}${device.model ? ` ${device.model}` : ''})`;
  }
  return text.slice(0, 255);
}
