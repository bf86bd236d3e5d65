import { REDACTED, redactJobData } from '../queue-redaction';

describe('redactJobData (what the queue dashboard shows of a job)', () => {
  it('masks secret keys at any depth and tokens in any text, and leaves the rest as it was', () => {
    const job = {
      id: 'j1',
      data: {
        template: 'verify-email',
        to: 'member@example.com',
        link: 'https://mate.example/verify-email?token=abc',
        vars: { note: 'see https://mate.example/x?a=1&token=s3cr3t&b=2', subscription: { endpoint: 'https://push.example/1', keys: { auth: 'k' } } },
      },
      list: ['https://mate.example/reset?t=zzz#top'],
    };
    const copy = JSON.parse(JSON.stringify(job));
    expect(redactJobData(job)).toEqual({
      id: 'j1',
      data: {
        template: 'verify-email',
        to: 'member@example.com',
        link: REDACTED,
        vars: { note: `see https://mate.example/x?a=1&token=${REDACTED}&b=2`, subscription: { endpoint: REDACTED, keys: REDACTED } },
      },
      list: [`https://mate.example/reset?t=${REDACTED}#top`],
    });
    expect(job).toEqual(copy);
  });

  it('passes numbers, nulls and plain strings through', () => {
    expect(redactJobData({ n: 1, x: null, s: 'hello', link: null })).toEqual({ n: 1, x: null, s: 'hello', link: null });
  });
});
