import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Before issue 7 item 10 was fixed, ADMIN_EMAILS made an account admin at sign-up, before its
 * address was proven: whoever registered such an address first holds the role. Under the new rule
 * an unverified account cannot have earned it, so each is a member again; verifying the address
 * grants the role anew when it is in ADMIN_EMAILS (ADR 0010). Their live sessions still say
 * 'admin' in Redis, but they are unverified (refused on admin routes), and verifying the email
 * sets every live session's role from the account (AccountsService.verifyEmail).
 *
 * `down` does nothing: which accounts were wrongly admin is not kept, and restoring them would
 * reopen the hole.
 */
export class DemoteUnverifiedAdmins1795388000000 implements MigrationInterface {
  name = 'DemoteUnverifiedAdmins1795388000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE users SET role = 'member', updated_at = now() WHERE role = 'admin' AND email_verified_at IS NULL`);
  }

  async down(): Promise<void> {
    /* irreversible by design (see above) */
  }
}
