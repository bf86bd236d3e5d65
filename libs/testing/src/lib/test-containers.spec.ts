import { containerPolicy } from './test-containers';

describe('TESTCONTAINERS', () => {
  const saved = process.env.TESTCONTAINERS;
  afterEach(() => {
    if (saved === undefined) delete process.env.TESTCONTAINERS;
    else process.env.TESTCONTAINERS = saved;
  });

  it('is auto when unset or empty', () => {
    delete process.env.TESTCONTAINERS;
    expect(containerPolicy()).toBe('auto');
    process.env.TESTCONTAINERS = '';
    expect(containerPolicy()).toBe('auto');
  });

  it('takes on, off and auto in any case', () => {
    process.env.TESTCONTAINERS = 'ON';
    expect(containerPolicy()).toBe('on');
    process.env.TESTCONTAINERS = ' off ';
    expect(containerPolicy()).toBe('off');
  });

  it('refuses anything else, naming the choices', () => {
    process.env.TESTCONTAINERS = 'true';
    expect(() => containerPolicy()).toThrow('TESTCONTAINERS must be auto, on or off, not "true"');
  });
});
