import type { MigrationInterface } from 'typeorm';
import { CreateChat1795600000000 } from './1795600000000-CreateChat';
import { ChatSafety1795700000000 } from './1795700000000-ChatSafety';
import { ChatPairVersion1795800000000 } from './1795800000000-ChatPairVersion';
import { ChatMemberErasure1796100000000 } from './1796100000000-ChatMemberErasure';
import { ChatMemberSuspension1796200000000 } from './1796200000000-ChatMemberSuspension';
import { SuspensionsInKitProjection1796410000000 } from './1796410000000-SuspensionsInKitProjection';
import { PairsInKitProjection1796430000000 } from './1796430000000-PairsInKitProjection';

/** chat-service's migrations, oldest first (they run after the kit's and its projections'). */
export const CHAT_MIGRATIONS: (new () => MigrationInterface)[] = [
  CreateChat1795600000000,
  ChatSafety1795700000000,
  ChatPairVersion1795800000000,
  ChatMemberErasure1796100000000,
  ChatMemberSuspension1796200000000,
  SuspensionsInKitProjection1796410000000,
  PairsInKitProjection1796430000000,
];
