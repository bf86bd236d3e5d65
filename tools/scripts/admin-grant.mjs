#!/usr/bin/env node
// `npm run admin:grant -- <email>`: gives an existing account the admin role, at once on its live
// sessions too. Uses auth-service's own command against DATABASE_URL (default: the local mate_auth).
import { runAuthAccountCommand } from './lib/auth-command.mjs';

runAuthAccountCommand('admin:grant', 'grant-admin');
