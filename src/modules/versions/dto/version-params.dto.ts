import { ApiProperty } from '@nestjs/swagger';
import { IsId } from '../../../common/ids/is-id.decorator.js';

export class AgentVersionParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of an agent of your organization' })
  @IsId()
  agentId: string;

  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: "Id of one of this agent's versions (`id` of a version item)" })
  @IsId()
  versionId: string;
}
