import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import {
  ADMIN_USER_SEARCH_DEFAULT_LIMIT,
  ADMIN_USER_SEARCH_MAX_LIMIT,
  ADMIN_USER_SEARCH_QUERY_MAX_LENGTH,
} from '@mate/contracts';
import { QueryInteger } from '@mate/server-kit';

/** Most ids one `GET /internal/admin/accounts?ids=` may name. */
export const ADMIN_ACCOUNTS_MAX_IDS = 200;

/** `ids=a,b` (or `ids=a&ids=b`): the list, trimmed, lower-cased, without repeats; anything else stays as sent and fails. */
const idList = ({ value }: { value: unknown }) => {
  const parts =
    typeof value === 'string'
      ? value.split(',')
      : Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? value.flatMap((v: string) => v.split(','))
        : null;
  if (!parts) return value;
  return [...new Set(parts.map((p) => p.trim().toLowerCase()).filter((p) => p !== ''))];
};

const IDS_MESSAGE = `ids must be 1 to ${ADMIN_ACCOUNTS_MAX_IDS} comma-separated UUIDs`;
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${ADMIN_USER_SEARCH_MAX_LIMIT}`;
const Q_MESSAGE = `q must be 1 to ${ADMIN_USER_SEARCH_QUERY_MAX_LENGTH} characters`;

/** `GET /internal/admin/accounts?ids=a,b`. */
export class AdminAccountsQueryDto {
  @Transform(idList)
  @IsUUID('all', { each: true, message: IDS_MESSAGE })
  @ArrayMaxSize(ADMIN_ACCOUNTS_MAX_IDS, { message: IDS_MESSAGE })
  @ArrayMinSize(1, { message: IDS_MESSAGE })
  @IsArray({ message: IDS_MESSAGE })
  ids!: string[];
}

/** `GET /internal/admin/accounts/search?q&limit`: name or email contains q (case-insensitive). */
export class AdminAccountSearchQueryDto {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @MaxLength(ADMIN_USER_SEARCH_QUERY_MAX_LENGTH, { message: Q_MESSAGE })
  @MinLength(1, { message: Q_MESSAGE })
  @IsString({ message: Q_MESSAGE })
  q!: string;

  @IsOptional()
  @QueryInteger()
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(ADMIN_USER_SEARCH_MAX_LIMIT, { message: LIMIT_MESSAGE })
  @IsInt({ message: LIMIT_MESSAGE })
  limit: number = ADMIN_USER_SEARCH_DEFAULT_LIMIT;
}
