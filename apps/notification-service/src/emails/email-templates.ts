import {
  EMAIL_CHANGE_TOKEN_TTL,
  EMAIL_VERIFICATION_TOKEN_TTL,
  HOUR,
  MINUTE,
  NAME_MAX_LENGTH,
  RESET_TOKEN_TTL,
  type EmailJobData,
  type EmailTemplate,
} from '@mate/contracts';

export const BRAND = 'Mate';
const ACCENT = '#e11d48';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** The job cannot be rendered (unknown template, missing or unsafe link): retrying will not help. */
export class EmailRenderError extends Error {}

/** "24 hours", "15 minutes": the lifetimes the emails promise are the ones auth-service enforces. */
export function formatDuration(ms: number): string {
  const unit = ms % HOUR === 0 ? { size: HOUR, name: 'hour' } : { size: MINUTE, name: 'minute' };
  const n = Math.round(ms / unit.size);
  return `${n} ${unit.name}${n === 1 ? '' : 's'}`;
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

interface TemplateInput {
  vars: Record<string, string>;
}

interface TemplateDefinition {
  subject: string;
  /**
   * Sent to an address nobody has proven yet (anyone may type any address at sign-up or in an
   * email change): the greeting leaves out the name, so no text a stranger chose reaches a
   * stranger's inbox under our brand (issue 7, item 6). auth-service sends no name for these too.
   */
  unverifiedRecipient?: true;
  /** The call to action; a template without one carries no link. */
  action?: string;
  /** Paragraphs before the button. */
  intro(input: TemplateInput): string[];
  /** Paragraphs after the button (validity, "ignore if it wasn't you"). */
  outro(input: TemplateInput): string[];
}

export const EMAIL_TEMPLATES: Record<EmailTemplate, TemplateDefinition> = {
  'verify-email': {
    subject: 'Verify your email address',
    unverifiedRecipient: true,
    action: 'Verify email address',
    intro: () => [
      `Welcome to ${BRAND}! Please confirm your email address to finish setting up your account.`,
    ],
    outro: () => [
      `This link is valid for ${formatDuration(EMAIL_VERIFICATION_TOKEN_TTL)}.`,
      `If you didn't create a ${BRAND} account, you can ignore this email.`,
    ],
  },
  'reset-password': {
    subject: 'Reset your password',
    action: 'Reset password',
    intro: () => [`We received a request to reset the password of your ${BRAND} account.`],
    outro: () => [
      `This link is valid for ${formatDuration(RESET_TOKEN_TTL)} and can be used only once.`,
      "If you didn't ask to reset your password, you can ignore this email: your password stays the same.",
    ],
  },
  'email-change': {
    subject: 'Confirm your new email address',
    unverifiedRecipient: true,
    action: 'Confirm new email address',
    intro: () => [
      `You asked to use this email address for your ${BRAND} account. Please confirm it to finish the change.`,
    ],
    outro: () => [
      `This link is valid for ${formatDuration(EMAIL_CHANGE_TOKEN_TTL)} and can be used only once.`,
      "If you didn't ask for this change, you can ignore this email: your account keeps its current address.",
    ],
  },
  'email-change-requested': {
    subject: `Your ${BRAND} email address is about to change`,
    action: 'Cancel the change',
    intro: ({ vars }) => [
      vars.newEmail
        ? `Someone asked to change the email address of your ${BRAND} account to ${vars.newEmail}.`
        : `Someone asked to change the email address of your ${BRAND} account.`,
      'Nothing changes until the new address is confirmed.',
    ],
    outro: () => [
      `If this was you, there is nothing to do. If it wasn't, cancel the change with the link above (valid for ${formatDuration(EMAIL_CHANGE_TOKEN_TTL)}) and reset your password.`,
    ],
  },
  'email-changed-notice': {
    subject: `Your ${BRAND} email address was changed`,
    intro: ({ vars }) => [
      vars.newEmail
        ? `The email address of your ${BRAND} account was changed to ${vars.newEmail}.`
        : `The email address of your ${BRAND} account was changed.`,
      'From now on, sign-in and account emails go to the new address.',
    ],
    outro: () => [
      "If you made this change, there is nothing more to do. If you didn't, reset your password right away and contact our support team.",
    ],
  },
};

function greeting(name: string | null | undefined): string {
  const clean = (name ?? '')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
    .slice(0, NAME_MAX_LENGTH);
  return clean ? `Hi ${clean},` : 'Hi there,';
}

function safeLink(link: string | undefined, template: EmailTemplate): string {
  if (!link) throw new EmailRenderError(`Template ${template} needs a link`);
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new EmailRenderError(`Template ${template} got a malformed link`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new EmailRenderError(`Template ${template} got a link that is not http(s)`);
  }
  return url.toString();
}

function renderText(
  hello: string,
  intro: string[],
  cta: { label: string; link: string } | null,
  outro: string[],
) {
  const parts = [hello, ...intro];
  if (cta) parts.push(`${cta.label}:\n${cta.link}`);
  parts.push(...outro, `— The ${BRAND} team`);
  return `${parts.join('\n\n')}\n`;
}

function renderHtml(
  subject: string,
  hello: string,
  intro: string[],
  cta: { label: string; link: string } | null,
  outro: string[],
) {
  const p = (text: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(text)}</p>`;
  const button = cta
    ? `<p style="margin:24px 0">
        <a href="${escapeHtml(cta.link)}" style="display:inline-block;background:${ACCENT};color:#ffffff;text-decoration:none;font-weight:600;padding:14px 24px;border-radius:12px;min-height:20px">${escapeHtml(cta.label)}</a>
      </p>
      <p style="margin:0 0 16px;line-height:1.5;font-size:13px;color:#555555">Or copy this link into your browser:<br>
        <a href="${escapeHtml(cta.link)}" style="color:${ACCENT};word-break:break-all">${escapeHtml(cta.link)}</a>
      </p>`
    : '';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(subject)}</title>
  </head>
  <body style="margin:0;padding:24px;background:#f4f1f8;font-family:Helvetica,Arial,sans-serif;color:#1f1f2e">
    <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:16px;padding:32px">
      <p style="margin:0 0 24px;font-size:24px;font-weight:700;color:${ACCENT}">${BRAND}</p>
      ${p(hello)}
      ${intro.map(p).join('\n      ')}
      ${button}
      ${outro.map(p).join('\n      ')}
      <p style="margin:24px 0 0;color:#555555">— The ${BRAND} team</p>
    </div>
  </body>
</html>
`;
}

/** Turns an email job into its subject and its text and HTML bodies. */
export function renderEmail(job: EmailJobData): RenderedEmail {
  const definition = EMAIL_TEMPLATES[job.template];
  if (!definition) throw new EmailRenderError(`Unknown email template ${String(job.template)}`);
  const input: TemplateInput = { vars: job.vars ?? {} };
  const cta = definition.action ? { label: definition.action, link: safeLink(job.link, job.template) } : null;
  const hello = greeting(definition.unverifiedRecipient ? null : job.name);
  const intro = definition.intro(input);
  const outro = definition.outro(input);
  return {
    subject: definition.subject,
    text: renderText(hello, intro, cta, outro),
    html: renderHtml(definition.subject, hello, intro, cta, outro),
  };
}
