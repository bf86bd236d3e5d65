import { ApiProperty } from '@nestjs/swagger';
import type { PhotoDto, PhotoUploadResponse } from '@mate/contracts';

/** Response shapes for the OpenAPI document; the contracts' interfaces keep them honest. */
export class PhotoResponseDto implements PhotoDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: '/api/photos/files/6f1c2d1e-0000-4000-8000-000000000000/large.webp' }) url!: string;
  @ApiProperty() isPrimary!: boolean;
  @ApiProperty({ type: 'integer' }) order!: number;
}

export class PhotoUploadResponseDto implements PhotoUploadResponse {
  @ApiProperty({ description: 'The large size of the new photo' }) url!: string;
  @ApiProperty({ type: PhotoResponseDto }) photo!: PhotoResponseDto;
}
