import { Equals, IsInt } from 'class-validator';
import type {
  MemberActivePayload,
  UserDeletedPayload,
  UserEmailChangedPayload,
  UserRegisteredPayload,
  UserSuspendedPayload,
  UserUnsuspendedPayload,
  UserVerifiedPayload,
} from '@mate/contracts';
import { Day, Id, Nullable, Optional, Text, Time } from './payload-fields';

/** `user.registered` (auth-service). */
export class UserRegisteredEvent implements UserRegisteredPayload {
  @Id() userId!: string;
  @Text() email!: string;
  @Nullable() @Text() name!: string | null;
  @Nullable() @IsInt() age!: number | null;
  @Time() registeredAt!: string;
}

/** `user.verified` (auth-service); name and age are schema version 2, absent in version 1. */
export class UserVerifiedEvent implements UserVerifiedPayload {
  @Id() userId!: string;
  @Time() verifiedAt!: string;
  @Optional() @Text() name?: string | null;
  @Optional() @IsInt() age?: number | null;
}

/** `user.email_changed` (auth-service). */
export class UserEmailChangedEvent implements UserEmailChangedPayload {
  @Id() userId!: string;
  @Text() oldEmail!: string;
  @Text() newEmail!: string;
  @Time() changedAt!: string;
}

/** `user.deleted` (auth-service): the one member every service erases. */
export class UserDeletedEvent implements UserDeletedPayload {
  @Id() userId!: string;
  @Time() deletedAt!: string;
}

/** `user.suspended` (auth-service): the whole suspension state. */
export class UserSuspendedEvent implements UserSuspendedPayload {
  @Id() userId!: string;
  @Equals(true) suspended!: true;
  @Text() reason!: string;
  @Time() suspendedAt!: string;
}

/** `user.unsuspended` (auth-service): the whole suspension state. */
export class UserUnsuspendedEvent implements UserUnsuspendedPayload {
  @Id() userId!: string;
  @Equals(false) suspended!: false;
  @Time() unsuspendedAt!: string;
}

/** `member.active` (auth-service): once per member and UTC day. */
export class MemberActiveEvent implements MemberActivePayload {
  @Id() userId!: string;
  @Day() day!: string;
  @Time() at!: string;
}
