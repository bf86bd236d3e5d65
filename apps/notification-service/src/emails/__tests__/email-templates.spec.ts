import type { EmailJobData, EmailTemplate } from '@mate/contracts';
import { EmailRenderError, escapeHtml, formatDuration, renderEmail } from '../email-templates';

const LINK = 'https://mate.example/verify-email?token=abc_DEF-123';

function job(template: EmailTemplate, extra: Partial<EmailJobData> = {}): EmailJobData {
  return { template, to: 'ana@mate.test', name: 'Ana', link: LINK, ...extra };
}

describe('email templates', () => {
  it.each<[EmailTemplate, string]>([
    ['verify-email', 'Verify your email address'],
    ['reset-password', 'Reset your password'],
    ['email-change', 'Confirm your new email address'],
    ['email-change-requested', 'Your Mate email address is about to change'],
    ['email-changed-notice', 'Your Mate email address was changed'],
  ])('%s has the subject "%s"', (template, subject) => {
    expect(renderEmail(job(template)).subject).toBe(subject);
  });

  it.each<EmailTemplate>(['verify-email', 'reset-password', 'email-change', 'email-change-requested'])(
    '%s carries the link in the text and as a button and raw link in the HTML',
    (template) => {
      const email = renderEmail(job(template));
      expect(email.text).toContain(LINK);
      expect(email.html).toContain(`href="${LINK}"`);
      expect(email.html.split(LINK).length - 1).toBeGreaterThanOrEqual(3); // button href, raw href, raw text
      expect(email.html).toContain('Mate');
    },
  );

  it('states how long each link is valid', () => {
    expect(renderEmail(job('verify-email')).text).toContain('valid for 24 hours');
    expect(renderEmail(job('reset-password')).text).toContain(
      'valid for 15 minutes and can be used only once',
    );
    expect(renderEmail(job('reset-password')).text).toMatch(
      /If you didn't ask to reset your password, you can ignore/,
    );
    expect(renderEmail(job('email-change')).text).toContain('valid for 30 minutes');
  });

  it('sends the change notice without a link and names the new address', () => {
    const email = renderEmail(
      job('email-changed-notice', { link: undefined, vars: { newEmail: 'new@mate.test' } }),
    );
    expect(email.text).toContain('changed to new@mate.test');
    expect(email.text).not.toMatch(/https?:\/\//);
    expect(email.html).not.toContain('<a ');
  });

  it('greets by name, or with "Hi there" when there is none', () => {
    expect(renderEmail(job('reset-password')).text.startsWith('Hi Ana,')).toBe(true);
    expect(renderEmail(job('reset-password', { name: null })).text.startsWith('Hi there,')).toBe(true);
    expect(renderEmail(job('reset-password', { name: '   ' })).html).toContain('Hi there,');
  });

  it.each<EmailTemplate>(['verify-email', 'email-change'])(
    '%s goes to an unproven address, so it never carries the name a stranger may have chosen (issue 7, item 6)',
    (template) => {
      const phishing = 'Security team: your account is at risk, re-login at https://evil.example';
      const email = renderEmail(job(template, { name: phishing }));
      for (const body of [email.text, email.html]) {
        expect(body).toContain('Hi there,');
        expect(body).not.toContain('Security team');
        expect(body).not.toContain('evil.example');
      }
    },
  );

  it('tells the current address of a requested change, naming the new address, with the cancellation link', () => {
    const cancel = 'https://mate.example/cancel-email-change?token=c4nc3l';
    const email = renderEmail(job('email-change-requested', { link: cancel, vars: { newEmail: 'thief@evil.test' } }));
    expect(email.text).toContain('to thief@evil.test');
    expect(email.text).toContain(`Cancel the change:\n${cancel}`);
    expect(email.text).toContain('valid for 30 minutes');
    expect(email.html).toContain(`href="${cancel}"`);
  });

  it('escapes names, addresses and links in the HTML', () => {
    const email = renderEmail(
      job('email-changed-notice', {
        name: '<script>alert("x")</script> & Co',
        vars: { newEmail: '"><img src=x onerror=alert(1)>@x.test' },
      }),
    );
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('<img');
    expect(email.html).toContain('Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co,');
    expect(email.text).toContain('Hi <script>alert("x")</script> & Co,');

    const linked = renderEmail(
      job('verify-email', { link: 'https://mate.example/verify-email?token=a&next="x"' }),
    );
    expect(linked.html).toContain('href="https://mate.example/verify-email?token=a&amp;next=%22x%22"');
    expect(linked.html).not.toContain('"x"');
  });

  it('refuses a missing or non-http link instead of sending a broken email', () => {
    expect(() => renderEmail(job('reset-password', { link: undefined }))).toThrow(EmailRenderError);
    expect(() => renderEmail(job('reset-password', { link: 'javascript:alert(1)' }))).toThrow(
      EmailRenderError,
    );
    expect(() => renderEmail(job('reset-password', { link: 'not a url' }))).toThrow(EmailRenderError);
    expect(() => renderEmail(job('nope' as EmailTemplate))).toThrow(EmailRenderError);
  });

  it('formats durations and escapes the five HTML characters', () => {
    expect(formatDuration(24 * 3600_000)).toBe('24 hours');
    expect(formatDuration(3600_000)).toBe('1 hour');
    expect(formatDuration(15 * 60_000)).toBe('15 minutes');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
