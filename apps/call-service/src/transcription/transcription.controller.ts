import { Controller, Get, HttpCode, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal, TranscriptionDto, WhisperStatusDto } from '@mate/contracts';
import { ApiErrors, CountedPerMember, CurrentUser, UnavailableInterceptor } from '@mate/server-kit';
import { TranscriptionRateLimiter } from './transcription-rate-limits';
import { TranscriptionUploadInterceptor } from './transcription-upload.interceptor';
import { TranscriptionService, type UploadedAudio } from './transcription.service';

export class WhisperStatusResponseDto implements WhisperStatusDto {
  @ApiProperty({ description: 'A transcription backend is configured and answers its health check' })
  available!: boolean;
}

export class TranscriptionResponseDto implements TranscriptionDto {
  @ApiProperty({
    example: 'hello there',
    description: 'One line, control characters removed, at most 500 characters',
  })
  text!: string;
}

/**
 * Live subtitles (every route needs a live session: global guard). Redis or the call lookup away:
 * 503, never 500 (a chunk is safe to send again).
 */
@ApiTags('whisper')
@Controller('api/whisper')
@UseInterceptors(UnavailableInterceptor)
export class TranscriptionController {
  constructor(private readonly transcription: TranscriptionService) {}

  @Get('status')
  @ApiOkResponse({ type: WhisperStatusResponseDto })
  async status(): Promise<WhisperStatusDto> {
    return { available: await this.transcription.available() };
  }

  /**
   * Multipart, field `audio`: one standalone webm/opus chunk of at most 1 MB, only while the member
   * is in an answered call; rate limited per member (counted by the guard with the session). The
   * audio is never stored or logged.
   */
  @Post('transcribe')
  @HttpCode(200)
  @CountedPerMember(TranscriptionRateLimiter, 'transcribe')
  @UseInterceptors(TranscriptionUploadInterceptor)
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['audio'],
      properties: { audio: { type: 'string', format: 'binary' } },
    },
  })
  @ApiOkResponse({ type: TranscriptionResponseDto })
  @ApiErrors(400, 403, 413, 429, 503)
  transcribe(
    @CurrentUser() _user: AuthPrincipal,
    @UploadedFile() audio: UploadedAudio | undefined,
  ): Promise<TranscriptionDto> {
    return this.transcription.transcribe(audio);
  }
}
