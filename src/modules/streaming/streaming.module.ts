import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { FeedbackModule } from '../feedback/feedback.module.js';
import { ReplayBufferEraser } from './replay-buffer-eraser.js';
import { ReplayBufferRepository } from './replay-buffer.repository.js';
import { SessionGateway } from './session.gateway.js';
import { SessionService } from './session.service.js';
import { SseStreamService } from './sse-stream.service.js';
import { StreamController } from './stream.controller.js';

/** The streaming transports over the messaging turn: resumable SSE and the WebSocket session. */
@Module({
  imports: [AuthModule, MetricsModule, IdempotencyModule, MessagingModule, FeedbackModule],
  controllers: [StreamController],
  providers: [SseStreamService, ReplayBufferRepository, ReplayBufferEraser, SessionGateway, SessionService],
})
export class StreamingModule {}
