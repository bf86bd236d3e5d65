import { ApiProperty } from '@nestjs/swagger';
import type { LikerDto, LikesReceivedDto } from '@mate/contracts';
import { CardPhotoResponseDto, SuggestionUserResponseDto } from '../../matching/dto/matching-responses.dto';

/** Response shapes for the OpenAPI document; the contracts' interfaces keep them honest. */
export class LikerResponseDto implements LikerDto {
  @ApiProperty({ type: SuggestionUserResponseDto, description: 'As their Discover card shows them' })
  user!: SuggestionUserResponseDto;
  @ApiProperty({ type: [CardPhotoResponseDto], description: 'Their photos, the primary first' })
  photos!: CardPhotoResponseDto[];
  @ApiProperty({ format: 'date-time' }) likedAt!: string;
}

export class LikesReceivedResponseDto implements LikesReceivedDto {
  @ApiProperty({ type: 'integer', description: 'Every unanswered like, not only this page' }) total!: number;
  @ApiProperty({ type: [LikerResponseDto], description: 'Newest like first' }) likers!: LikerResponseDto[];
}
