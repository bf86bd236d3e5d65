import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import { API_ERROR_CODES, type ApiErrorBody, type MessageResponse } from '@mate/contracts';

/** The one error body (`{ error, code, requestId }`), as every service and the gateway answer it. */
export class ErrorBodyDto implements ApiErrorBody {
  @ApiProperty({ description: 'What went wrong, for people (the spec shows this text)', example: 'Please enter a valid email address' })
  error!: string;

  @ApiPropertyOptional({ enum: API_ERROR_CODES, enumName: 'ApiErrorCode', description: 'Stable machine-readable code that names the cause' })
  code?: string;

  @ApiPropertyOptional({ description: 'Id of the request, to find it in the logs', example: '6f1c2d1e-…' })
  requestId?: string;

  @ApiPropertyOptional({ type: [String], description: 'Every field message when validation found several' })
  details?: string[];
}

export class MessageResponseDto implements MessageResponse {
  @ApiProperty({ example: 'Logged out' })
  message!: string;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: unknown fields are refused, `error` names the first problem',
  401: 'No valid bearer token or no live session',
  403: 'Not allowed for this account',
  404: 'Not found',
  409: 'Conflicts with the current state',
  413: 'Body too large',
  429: 'Too many attempts; `Retry-After` says when to try again',
  503: 'A service or dependency is unavailable',
};

/** Documents error answers with the shared error body: `@ApiErrors(400, 404)`. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: ERROR_DESCRIPTIONS[status] ?? 'Error', type: ErrorBodyDto })),
  );
}
