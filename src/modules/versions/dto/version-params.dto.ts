import { ApiProperty } from '@nestjs/swagger';
import { IsId } from '../../../common/ids/is-id.decorator.js';

export class AgentVersionParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$' })
  @IsId()
  agentId: string;

  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$' })
  @IsId()
  versionId: string;
}
