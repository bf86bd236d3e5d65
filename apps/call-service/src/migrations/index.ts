import type { MigrationInterface } from 'typeorm';
import { CreateCall1795900000000 } from './1795900000000-CreateCall';
import { CallMemberErasure1796100000000 } from './1796100000000-CallMemberErasure';
import { CallMemberSuspension1796200000000 } from './1796200000000-CallMemberSuspension';
import { CallMemberPicture1796300000000 } from './1796300000000-CallMemberPicture';
import { SuspensionsInKitProjection1796410000000 } from './1796410000000-SuspensionsInKitProjection';
import { PairsInKitProjection1796430000000 } from './1796430000000-PairsInKitProjection';

/** call-service's migrations, oldest first (they run after the kit's and its projections'). */
export const CALL_MIGRATIONS: (new () => MigrationInterface)[] = [
  CreateCall1795900000000,
  CallMemberErasure1796100000000,
  CallMemberSuspension1796200000000,
  CallMemberPicture1796300000000,
  SuspensionsInKitProjection1796410000000,
  PairsInKitProjection1796430000000,
];
