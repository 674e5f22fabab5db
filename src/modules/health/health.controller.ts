import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '../../common/errors/error-code.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { Public } from '../auth/decorators/auth.decorator.js';
import { notReady, ReadinessService } from './readiness.service.js';

class ReadinessDto {
  @ApiProperty({ example: 'ok', description: 'Always ok when the service is ready' }) status: 'ok';
  @ApiProperty({ example: { database: 'ok', redis: 'ok' }, description: 'Each dependency checked' }) checks: Record<string, 'ok'>;
}

/** Readiness; liveness (`GET /health`) is a Fastify route of its own (liveness.ts). */
@ApiTags('Health')
@Controller('health')
@Public()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get('ready')
  @ApiOperation({
    summary: 'Readiness: PostgreSQL and Redis are reachable',
    description:
      'No credential. 503 `not_ready` naming the unreachable dependency in `details` (each check times out after 2 s), ' +
      'or `shutdown` from SIGTERM on while this instance drains (docs/operations.md).',
  })
  @ApiOkResponse({ type: ReadinessDto })
  @ApiErrors({
    status: 503,
    code: ErrorCode.NotReady,
    message: 'Not ready: redis unreachable',
    description: 'A dependency is unreachable (`not_ready`, see Retry-After)',
    details: [{ field: 'redis', message: 'redis is unreachable' }],
  })
  async ready(): Promise<ReadinessDto> {
    const { ready, failed } = await this.readiness.check();
    if (!ready) throw notReady(failed);
    return { status: 'ok', checks: { database: 'ok', redis: 'ok' } };
  }
}
