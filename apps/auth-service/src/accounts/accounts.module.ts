import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CLOCK, RateLimits, REDIS, type Clock, type RedisClient } from '@mate/server-kit';
import { AuthEnv } from '../auth.env';
import { Session } from '../sessions/session.entity';
import { SessionsController } from '../sessions/sessions.controller';
import { SessionsService } from '../sessions/sessions.service';
import { AuthToken } from '../tokens/auth-token.entity';
import { TokensService } from '../tokens/tokens.service';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { AuthController, VerificationController } from './accounts.controller';
import { AUTH_RATE_LIMITER, authRateLimits, MemberRequestLimits } from './rate-limits';
import { KnownAddresses } from './known-addresses';
import { User } from './user.entity';

@Module({
  imports: [
    TypeOrmModule.forFeature([User, Session, AuthToken]),
    JwtModule.registerAsync({
      inject: [AuthEnv],
      useFactory: (env: AuthEnv) => ({
        secret: env.JWT_SECRET,
        signOptions: { algorithm: 'HS256', expiresIn: env.JWT_EXPIRES_IN as `${number}d` },
      }),
    }),
  ],
  controllers: [AuthController, VerificationController, SessionsController],
  providers: [
    AccountsService,
    AccountsRepository,
    MemberRequestLimits,
    SessionsService,
    TokensService,
    {
      provide: AUTH_RATE_LIMITER,
      inject: [REDIS, AuthEnv],
      useFactory: (redis: RedisClient, env: AuthEnv) =>
        new RateLimits(redis, env.KEY_PREFIX, authRateLimits(env.IP_RATE_LIMIT_MULTIPLIER)),
    },
    {
      provide: KnownAddresses,
      inject: [REDIS, AuthEnv, CLOCK],
      useFactory: (redis: RedisClient, env: AuthEnv, clock: Clock) => new KnownAddresses(redis, env.KEY_PREFIX, clock),
    },
  ],
  exports: [AccountsService, AccountsRepository, SessionsService, AUTH_RATE_LIMITER, KnownAddresses],
})
export class AccountsModule {}
