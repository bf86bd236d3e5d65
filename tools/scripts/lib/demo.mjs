// Demo accounts for `npm start`: a verified member who has finished onboarding and a verified
// admin. Created through the public API (and the verification link from the mail catcher), the
// same way a person would, so the data is consistent across every service.
import { log } from './platform.mjs';

export const DEMO_ACCOUNTS = {
  member: { email: 'demo@mate.local', password: 'mate-demo-2026', name: 'Demo Member', age: 29 },
  admin: { email: 'admin@mate.local', password: 'mate-admin-2026', name: 'Mate Admin', age: 35 },
};

async function json(url, method, body, token) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function verificationToken(maildevUrl, email) {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${maildevUrl}/email`);
    const emails = await res.json();
    const match = emails
      .filter((e) => e.to?.some((t) => t.address === email))
      .map((e) => /verify-email\?token=([A-Za-z0-9_-]+)/.exec(`${e.text ?? ''}${e.html ?? ''}`))
      .filter(Boolean)
      .pop();
    if (match) return match[1];
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

async function ensureAccount(gatewayUrl, maildevUrl, account, completeOnboarding) {
  const { email, password, name, age } = account;
  let res = await json(`${gatewayUrl}/api/auth/login`, 'POST', { email, password });
  if (res.status === 401) {
    res = await json(`${gatewayUrl}/api/auth/register`, 'POST', { email, password, name, age });
    if (res.status !== 201) throw new Error(`demo account ${email}: ${res.body?.error ?? res.status}`);
  } else if (res.status !== 200) {
    throw new Error(`demo account ${email}: ${res.body?.error ?? res.status}`);
  }
  const token = res.body.token;
  if (!res.body.user.isVerified) {
    const verifyToken = await verificationToken(maildevUrl, email);
    if (verifyToken) await json(`${gatewayUrl}/api/verification/verify`, 'POST', { token: verifyToken });
  }
  if (completeOnboarding) {
    for (let i = 0; i < 50; i++) {
      const done = await json(`${gatewayUrl}/api/profile/me/complete-onboarding`, 'POST', undefined, token);
      if (done.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await json(`${gatewayUrl}/api/auth/logout`, 'POST', undefined, token);
}

export async function createDemoAccounts({ gatewayUrl, maildevUrl }) {
  try {
    await ensureAccount(gatewayUrl, maildevUrl, DEMO_ACCOUNTS.member, true);
    await ensureAccount(gatewayUrl, maildevUrl, DEMO_ACCOUNTS.admin, true);
  } catch (e) {
    log(`demo accounts could not be prepared: ${e.message}`);
  }
}
