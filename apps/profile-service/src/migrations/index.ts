import type { MigrationInterface } from 'typeorm';
import { CreateProfiles1795284000000 } from './1795284000000-CreateProfiles';
import { PhotosLocationPreferences1795300000000 } from './1795300000000-PhotosLocationPreferences';
import { ProfileLifestyle1795400000000 } from './1795400000000-ProfileLifestyle';
import { BlockedPairs1795600000000 } from './1795600000000-BlockedPairs';
import { SuspendedMembers1796200000000 } from './1796200000000-SuspendedMembers';
import { PhotoReview1796300000000 } from './1796300000000-PhotoReview';
import { SuspensionsInKitProjection1796410000000 } from './1796410000000-SuspensionsInKitProjection';
import { BlocksInKitProjection1796420000000 } from './1796420000000-BlocksInKitProjection';

/** profile-service's migrations, oldest first (they run after the kit's and its projections'). */
export const PROFILE_MIGRATIONS: (new () => MigrationInterface)[] = [
  CreateProfiles1795284000000,
  PhotosLocationPreferences1795300000000,
  ProfileLifestyle1795400000000,
  BlockedPairs1795600000000,
  SuspendedMembers1796200000000,
  PhotoReview1796300000000,
  SuspensionsInKitProjection1796410000000,
  BlocksInKitProjection1796420000000,
];
