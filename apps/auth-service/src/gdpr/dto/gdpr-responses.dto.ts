import { ApiProperty } from '@nestjs/swagger';
import type { GdprExportResponse, MemberDataExport } from '@mate/contracts';

/** `POST /api/gdpr/export`: the document's shape is MemberDataExport in @mate/contracts. */
export class GdprExportResponseDto implements GdprExportResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "The member's data: format 'mate-data-export', formatVersion 1, userId, exportedAt, and the parts account, profile, matching, chat, calls, safety, notifications",
  })
  data!: MemberDataExport;
}
