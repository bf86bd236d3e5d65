import { Type } from 'class-transformer';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ProfileMessages } from '@mate/contracts';

/** POST /api/profile/me/photos: a photo already uploaded to Mate, named by its URL. */
export class AttachPhotoDto {
  @ApiProperty({ example: '/api/photos/files/6f1c2d1e-0000-4000-8000-000000000000/large.webp', description: 'A photo already uploaded to Mate' })
  @IsString({ message: ProfileMessages.photoNotUploadedHere })
  @MaxLength(2048, { message: ProfileMessages.photoNotUploadedHere })
  url!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'isPrimary must be true or false' })
  isPrimary?: boolean;
}

const ORDER_MESSAGE = 'Each photo order needs an id and a whole-number order';

export class PhotoOrderDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: ProfileMessages.photoOrderMismatch })
  id!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 1000 })
  @IsInt({ message: ORDER_MESSAGE })
  @Min(0, { message: ORDER_MESSAGE })
  @Max(1000, { message: ORDER_MESSAGE })
  order!: number;
}

/** PUT /api/photos/reorder: every visible photo of the member, each once, with its new place. */
export class ReorderPhotosDto {
  @ApiProperty({ type: [PhotoOrderDto], description: 'Every visible photo, each once' })
  @IsArray({ message: ProfileMessages.photoOrderMismatch })
  @ArrayMaxSize(50, { message: ProfileMessages.photoOrderMismatch })
  @ValidateNested({ each: true })
  @Type(() => PhotoOrderDto)
  photoOrders!: PhotoOrderDto[];
}
