import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorCode } from '../../common/errors/error-code.js';
import { RedisService } from '../../common/redis/redis.service.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { Public } from '../auth/decorators/auth.decorator.js';
import { HealthRepository } from './health.repository.js';

class HealthDto {
  @ApiProperty({ example: 'ok', description: 'Always ok when the service answers' }) status: 'ok';
}

class ReadinessDto extends HealthDto {
  @ApiProperty({ example: { database: 'ok', redis: 'ok' }, description: 'Each dependency checked' }) checks: Record<string, 'ok'>;
}

const HEALTHY: HealthDto = { status: 'ok' };
const CHECK_TIMEOUT_MS = 2000;

@ApiTags('Health')
@Controller('health')
@Public()
export class HealthController {
  constructor(
    private readonly database: HealthRepository,
    private readonly redis: RedisService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Liveness: the process is up',
    description: 'No credential. 200 while the process serves HTTP; checks nothing else.',
  })
  @ApiOkResponse({ type: HealthDto })
  live(): HealthDto {
    return HEALTHY;
  }

  @Get('ready')
  @ApiOperation({
    summary: 'Readiness: PostgreSQL and Redis are reachable',
    description: 'No credential. 503 `not_ready` naming the unreachable dependency in `details` (each check times out after 2 s).',
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
    const [database, redis] = await Promise.all([check(() => this.database.ping()), check(() => this.redis.client.ping())]);
    const failed = Object.entries({ database, redis })
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    if (failed.length > 0) {
      throw new AppError(
        503,
        ErrorCode.NotReady,
        `Not ready: ${failed.join(', ')} unreachable`,
        failed.map((name) => ({ field: name, message: `${name} is unreachable` })),
        { 'retry-after': '5' },
      );
    }
    return { status: 'ok', checks: { database: 'ok', redis: 'ok' } };
  }
}

async function check(probe: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
