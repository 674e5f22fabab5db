import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

/** `?force=true`: go ahead although the evaluation gate refuses (the change is audited as forced). */
export class ForceQueryDto {
  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      'Publish (or split traffic) even when the agent requires a passing evaluation and this revision has none; audited as forced',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'force must be true or false' })
  force?: boolean;
}
