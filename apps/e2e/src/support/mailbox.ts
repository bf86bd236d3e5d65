/** Reads the mail catcher's REST API (maildev `GET /email`), as a person reads their inbox. */
export interface CaughtEmail {
  id: string;
  subject: string;
  to: { address: string }[];
  text?: string;
  html?: string;
  time?: string;
}

export async function inbox(maildevUrl: string, to: string): Promise<CaughtEmail[]> {
  const res = await fetch(`${maildevUrl}/email`);
  const all = (await res.json()) as CaughtEmail[];
  return all.filter((e) => e.to.some((t) => t.address.toLowerCase() === to.toLowerCase()));
}

/** Waits for the `nth` email (0-based) to `to` whose body holds a link to `route`, and returns the link. */
export async function waitForLink(maildevUrl: string, to: string, route: string, nth = 0, timeoutMs = 20000): Promise<string> {
  const pattern = new RegExp(`https?://[^\\s"'<>]*${route}\\?token=[A-Za-z0-9_-]+`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const links = (await inbox(maildevUrl, to))
      .map((e) => pattern.exec(`${e.text ?? ''} ${e.html ?? ''}`)?.[0])
      .filter((l): l is string => Boolean(l));
    if (links.length > nth) return links[nth];
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`No email to ${to} with a ${route} link (#${nth + 1}) within ${timeoutMs} ms`);
}

export const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';

export function uniqueEmail(label: string) {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@mate.test`;
}
