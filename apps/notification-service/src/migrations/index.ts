import type { MigrationInterface } from 'typeorm';
import { CreateEmailDelivery1795284000000 } from './1795284000000-CreateEmailDelivery';
import { CreatePush1796100000000 } from './1796100000000-CreatePush';
import { EmailDeliveryMember1796200000000 } from './1796200000000-EmailDeliveryMember';
import { NotificationMemberSuspension1796300000000 } from './1796300000000-NotificationMemberSuspension';
import { SuspensionsInKitProjection1796410000000 } from './1796410000000-SuspensionsInKitProjection';
import { PairsInKitProjection1796420000000 } from './1796420000000-PairsInKitProjection';

/** notification-service's migrations, oldest first (they run after the kit's and its projections'). */
export const NOTIFICATION_MIGRATIONS: (new () => MigrationInterface)[] = [
  CreateEmailDelivery1795284000000,
  CreatePush1796100000000,
  EmailDeliveryMember1796200000000,
  NotificationMemberSuspension1796300000000,
  SuspensionsInKitProjection1796410000000,
  PairsInKitProjection1796420000000,
];
