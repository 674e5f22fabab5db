import { Module } from '@nestjs/common';
import { RuntimeService } from './runtime.service.js';

/** The agent engines (v1 decisioning, v2 grounded) and the model providers. */
@Module({
  providers: [RuntimeService],
  exports: [RuntimeService],
})
export class RuntimeModule {}
