import { Transform } from 'class-transformer';
import { IsInt, IsString, IsUrl, Min } from 'class-validator';
import { BaseServiceEnv } from '@mate/server-kit';

const url = { require_tld: false, require_protocol: true };
const int = ({ value }: { value: unknown }) => Number(value);

/** Settings of the gateway: where each service lives, and the edge limits. */
export class GatewayEnv extends BaseServiceEnv {
  @IsUrl(url) AUTH_SERVICE_URL = 'http://127.0.0.1:3101';
  @IsUrl(url) PROFILE_SERVICE_URL = 'http://127.0.0.1:3102';
  @IsUrl(url) MATCHING_SERVICE_URL = 'http://127.0.0.1:3103';
  @IsUrl(url) CHAT_SERVICE_URL = 'http://127.0.0.1:3104';
  @IsUrl(url) CALL_SERVICE_URL = 'http://127.0.0.1:3105';
  @IsUrl(url) SAFETY_SERVICE_URL = 'http://127.0.0.1:3106';
  @IsUrl(url) ADMIN_SERVICE_URL = 'http://127.0.0.1:3107';
  @IsUrl(url) NOTIFICATION_SERVICE_URL = 'http://127.0.0.1:3108';

  /** The edge believes no X-Forwarded-For by default; set "1" behind one ingress hop. */
  @IsString()
  override TRUST_PROXY = 'false';

  /** The two web apps' origins, comma-separated. */
  @IsString()
  CORS_ORIGINS = 'http://localhost:4200,http://127.0.0.1:4200,http://localhost:4300,http://127.0.0.1:4300';

  /** Requests per minute one address may make through the gateway. */
  @Transform(int) @IsInt() @Min(1) RATE_LIMIT_PER_MINUTE = 1200;

  /** Largest request body for ordinary calls, and for photo and audio uploads. */
  @Transform(int) @IsInt() @Min(1024) BODY_LIMIT_BYTES = 1024 * 1024;
  @Transform(int) @IsInt() @Min(1024) UPLOAD_LIMIT_BYTES = 11 * 1024 * 1024;

  /** How long a service may take to answer before the gateway gives up. */
  @Transform(int) @IsInt() @Min(100) UPSTREAM_TIMEOUT_MS = 30000;
}
