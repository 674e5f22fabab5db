import { Module } from '@nestjs/common';
import { ChannelsModule } from './channels.module.js';
import { ChannelsOutboundProcessor } from './channels-outbound.processor.js';
import { ChannelsSweeper } from './channels.sweeper.js';

/** Delivers outbound channel messages and sweeps what a crash left behind: imported where queue processors run. */
@Module({ imports: [ChannelsModule], providers: [ChannelsOutboundProcessor, ChannelsSweeper] })
export class ChannelsWorkerModule {}
