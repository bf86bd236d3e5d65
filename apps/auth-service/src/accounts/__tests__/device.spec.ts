import { describeDevice } from '../device';

describe('describeDevice', () => {
  it('names browser and system of a desktop', () => {
    expect(
      describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'),
    ).toBe('Chrome 131 on Windows 10');
  });

  it('marks phones and tablets so the sessions screen can pick an icon', () => {
    expect(
      describeDevice('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'),
    ).toContain('(tablet iPad)');
  });

  it('copes with no user agent', () => {
    expect(describeDevice(undefined)).toBe('Unknown device');
  });
});
