import { ApiProperty } from '@nestjs/swagger';
import { CALL_STATUSES, type CallRecordDto, type CallStatsDto, type CallStatus } from '@mate/contracts';

export class CallRecordResponseDto implements CallRecordDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;
  @ApiProperty({ format: 'uuid' })
  callerId!: string;
  @ApiProperty({ format: 'uuid' })
  recipientId!: string;
  @ApiProperty({ type: String, nullable: true })
  callerName!: string | null;
  @ApiProperty({ type: String, nullable: true })
  recipientName!: string | null;
  @ApiProperty({ enum: CALL_STATUSES })
  status!: CallStatus;
  @ApiProperty({ format: 'date-time' })
  startedAt!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'Seconds from the answer to the end (server-measured); 0 when never answered; null in progress',
  })
  durationSeconds!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'null without a picture, deleted or suspended' })
  callerProfilePicture!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'null without a picture, deleted or suspended' })
  recipientProfilePicture!: string | null;
  @ApiProperty({ description: 'The two may call each other now (matched, unblocked, neither suspended nor deleted)' })
  callable!: boolean;
}

export class CallStatsResponseDto implements CallStatsDto {
  @ApiProperty()
  totalCalls!: number;
  @ApiProperty()
  completedCalls!: number;
  @ApiProperty({ description: 'completedCalls / totalCalls (0 without calls)' })
  successRate!: number;
  @ApiProperty({ description: 'Mean duration of completed calls in seconds (0 without any)' })
  averageDurationSeconds!: number;
}
