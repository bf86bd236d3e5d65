import type { MigrationInterface } from 'typeorm';
import { CreateAccounts1795290000000 } from './1795290000000-CreateAccounts';
import { EmailChangeCancelToken1795386200000 } from './1795386200000-EmailChangeCancelToken';
import { DemoteUnverifiedAdmins1795388000000 } from './1795388000000-DemoteUnverifiedAdmins';
import { MemberActivity1796400000000 } from './1796400000000-MemberActivity';

/** auth-service's migrations, oldest first. */
export const AUTH_MIGRATIONS: (new () => MigrationInterface)[] = [
  CreateAccounts1795290000000,
  EmailChangeCancelToken1795386200000,
  DemoteUnverifiedAdmins1795388000000,
  MemberActivity1796400000000,
];
