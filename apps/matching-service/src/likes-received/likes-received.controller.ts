import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal, LikesReceivedDto } from '@mate/contracts';
import { ApiErrors, CurrentUser } from '@mate/server-kit';
import { LikesReceivedQueryDto } from './dto/likes-received-query.dto';
import { LikesReceivedResponseDto } from './dto/likes-received-responses.dto';
import { LikesReceivedService } from './likes-received.service';

/**
 * The home screen's "Who liked you" (issue 25). Every route needs a live session of a verified
 * account (global guard), and a member only ever reads the likes they received themselves.
 */
@ApiTags('matching')
@Controller('api/matches')
export class LikesReceivedController {
  constructor(private readonly likes: LikesReceivedService) {}

  @Get('likes-received')
  @ApiOkResponse({
    type: LikesReceivedResponseDto,
    description: 'The members who liked the caller and whom the caller has not answered, newest first',
  })
  @ApiErrors(400)
  likesReceived(
    @CurrentUser() user: AuthPrincipal,
    @Query() query: LikesReceivedQueryDto,
  ): Promise<LikesReceivedDto> {
    return this.likes.likesReceived(user.userId, query.limit, query.offset);
  }
}
