import { Module } from '@nestjs/common';
import { ChannelsModule } from './channels.module.js';
import { ChannelsProcessor } from './channels.processor.js';

/** Delivers outbound channel messages and sweeps what a crash left behind: imported where queue processors run. */
@Module({ imports: [ChannelsModule], providers: [ChannelsProcessor] })
export class ChannelsWorkerModule {}
