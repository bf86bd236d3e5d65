import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { BlankAsUnset, DatabaseEnv, EnvNumber, Secret } from '@mate/server-kit';

/** A comma list of ICE URLs of one scheme family (`stun:`/`stuns:` or `turn:`/`turns:`), no spaces inside a URL. */
const urlList = (schemes: string) =>
  new RegExp(`^\\s*(${schemes}):[^\\s,]+(\\s*,\\s*(${schemes}):[^\\s,]+)*\\s*$`);

/**
 * ICE servers handed to the call screen (`GET /api/calls/ice-servers`). None set (tests, one
 * machine): no ICE server, host candidates only. TURN credentials are computed per member by the
 * coturn REST scheme from `TURN_SECRET` (coturn's `static-auth-secret`); the secret never leaves
 * the service and is never printed.
 */
export class IceEnv extends DatabaseEnv {
  /** STUN servers, comma separated: `stun:stun.example.org:3478,stun:...`. */
  @BlankAsUnset()
  @IsOptional()
  @Matches(urlList('stuns?'), { message: 'STUN_URLS must be a comma list of stun: or stuns: URLs' })
  STUN_URLS?: string;

  /** TURN servers, comma separated: `turn:turn.example.org:3478?transport=udp,turns:...:5349`. */
  @BlankAsUnset()
  @IsOptional()
  @Matches(urlList('turns?'), { message: 'TURN_URLS must be a comma list of turn: or turns: URLs' })
  TURN_URLS?: string;

  /** coturn's `static-auth-secret`; required with TURN_URLS. */
  @Secret()
  @BlankAsUnset()
  @ValidateIf((env: IceEnv) => env.TURN_URLS !== undefined || env.TURN_SECRET !== undefined)
  @IsString({ message: 'TURN_SECRET is required when TURN_URLS is set' })
  @MinLength(16, { message: 'TURN_SECRET must be at least 16 characters' })
  TURN_SECRET?: string;

  /** How long a member's TURN credentials work. */
  @EnvNumber()
  @IsInt()
  @Min(60)
  @Max(7 * 24 * 3600)
  TURN_TTL_SECONDS = 3600;
}
