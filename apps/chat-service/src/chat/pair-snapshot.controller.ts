import { Controller, Get, Param, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { orderedPairOf, type PairMessagesSnapshotDto } from '@mate/contracts';
import {
  badRequest,
  InternalCallerGuard,
  MemberIdPipe,
  Public,
  UnavailableInterceptor,
} from '@mate/server-kit';
import { isoTime } from './chat-mapper';
import { MessageRepository } from './message.repository';
import { PairSnapshotQueryDto } from './dto/chat-requests.dto';

/**
 * `GET /internal/chat/pairs/{a}/{b}/messages?before=ISO&limit=20`: the newest `limit` messages
 * between two members sent before `before` (default now), oldest first, whether their
 * conversation is open or closed and including history hidden from them after a re-match.
 * safety-service keeps them in a report (issue 10). Service to service only: `/internal/**` is
 * refused without the deployment's internal credential (the kit's middleware, and this guard);
 * no member token (each report is the caller's to authorize). Not in the API documents.
 */
@ApiExcludeController()
@UseGuards(InternalCallerGuard)
@UseInterceptors(UnavailableInterceptor)
@Controller('internal/chat/pairs')
export class PairSnapshotController {
  constructor(private readonly messageRepository: MessageRepository) {}

  @Get(':a/:b/messages')
  @Public()
  async messages(
    @Param('a', MemberIdPipe) x: string,
    @Param('b', MemberIdPipe) y: string,
    @Query() query: PairSnapshotQueryDto,
  ): Promise<PairMessagesSnapshotDto> {
    if (x === y) return { messages: [] };
    const before = query.before === undefined ? new Date() : new Date(query.before);
    if (Number.isNaN(before.getTime())) throw badRequest('before must be an ISO 8601 time');
    const [a, b] = orderedPairOf(x, y);
    const rows = await this.messageRepository.pairSnapshot(a, b, before, query.limit);
    return {
      messages: rows.reverse().map((m) => ({
        id: m.id,
        seq: m.seq,
        senderId: m.sender_id,
        recipientId: m.recipient_id,
        content: m.content,
        createdAt: isoTime(m.created_at),
      })),
    };
  }
}
