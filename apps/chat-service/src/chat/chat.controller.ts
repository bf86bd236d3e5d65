import { Controller, Get, HttpCode, HttpStatus, Param, Post, Query, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type {
  AuthPrincipal,
  ConversationPageDto,
  ConversationSummaryDto,
  MarkReadResultDto,
  UnreadCountDto,
} from '@mate/contracts';
import { ApiErrors, CurrentUser, MemberIdPipe, UnavailableInterceptor } from '@mate/server-kit';
import { ConversationsService } from './conversations.service';
import { ConversationQueryDto } from './dto/chat-requests.dto';
import {
  ConversationPageResponseDto,
  ConversationSummaryResponseDto,
  MarkReadResultResponseDto,
  UnreadCountResponseDto,
} from './dto/chat-responses.dto';

import { MessagesService } from './messages.service';

/**
 * Chat for the signed-in member (spec 000 §7): the conversation list, a conversation's pages, read
 * state and the unread badge. Every route needs a live session (global guard) and reaches only the
 * caller's own open conversations; sending is the `send_message` socket event (chat-socket-events.ts).
 * A failure that is not a refusal (the database away for a moment) is 503, safe to retry.
 */
@ApiTags('chat')
@UseInterceptors(UnavailableInterceptor)
@Controller('api/chat')
export class ChatController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
  ) {}

  @Get('conversations')
  @ApiOkResponse({
    type: [ConversationSummaryResponseDto],
    description: 'Open conversations, newest activity first (at most 500)',
  })
  @ApiErrors(503)
  list(@CurrentUser() user: AuthPrincipal): Promise<ConversationSummaryDto[]> {
    return this.conversations.list(user.userId);
  }

  @Get('conversation/:userId')
  @ApiOkResponse({ type: ConversationPageResponseDto, description: 'Ascending seq' })
  @ApiErrors(400, 404, 503)
  page(
    @CurrentUser() user: AuthPrincipal,
    @Param('userId', MemberIdPipe) userId: string,
    @Query() query: ConversationQueryDto,
  ): Promise<ConversationPageDto> {
    return this.messages.page(user.userId, userId, query);
  }

  @Post('conversation/:userId/read')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: MarkReadResultResponseDto })
  @ApiErrors(400, 404, 503)
  read(@CurrentUser() user: AuthPrincipal, @Param('userId', MemberIdPipe) userId: string): Promise<MarkReadResultDto> {
    return this.conversations.markRead(user.userId, userId);
  }

  @Get('unread-count')
  @ApiOkResponse({ type: UnreadCountResponseDto })
  @ApiErrors(503)
  unreadCount(@CurrentUser() user: AuthPrincipal): Promise<UnreadCountDto> {
    return this.conversations.unreadCount(user.userId);
  }
}
