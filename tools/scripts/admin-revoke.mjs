#!/usr/bin/env node
// `npm run admin:revoke -- <email>`: takes the admin role from an account (it stays, as a member),
// at once on its live sessions too: the admin API and the queue dashboard refuse its next request.
// Refused for an address in ADMIN_EMAILS (its next sign-in would make it admin again).
import { runAuthAccountCommand } from './lib/auth-command.mjs';

runAuthAccountCommand('admin:revoke', 'revoke-admin');
