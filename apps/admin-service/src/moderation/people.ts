import { Injectable } from '@nestjs/common';
import { OwnersClient } from './owners.client';

export interface Person {
  name: string | null;
  email: string | null;
  /** auth answered and has no such account: the member was deleted (not merely unknown right now). */
  deleted: boolean;
}

/** Looks up names and emails of members by id, for the admin views. */
@Injectable()
export class People {
  constructor(private readonly owners: OwnersClient) {}

  /**
   * Name and email of each id (auth's accounts and profile's names in parallel): the profile's name
   * wins, the account's is the fallback. An id no part knows (gone, or its part did not answer)
   * gets nulls; `deleted` only when auth answered without it.
   */
  async lookUp(ids: (string | null | undefined)[]): Promise<(id: string | null) => Person> {
    const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
    const [accounts, profiles] = await Promise.all([this.owners.accounts(wanted), this.owners.profiles(wanted)]);
    const emails = new Map<string, string>();
    const names = new Map<string, string>();
    if (accounts.ok) {
      for (const a of accounts.value) {
        emails.set(a.id, a.email);
        if (a.name) names.set(a.id, a.name);
      }
    }
    if (profiles.ok) for (const p of profiles.value) if (p.name) names.set(p.userId, p.name);
    return (id) =>
      id ? { name: names.get(id) ?? null, email: emails.get(id) ?? null, deleted: accounts.ok && !emails.has(id) } : { name: null, email: null, deleted: false };
  }
}
