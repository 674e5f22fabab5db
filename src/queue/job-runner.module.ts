import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JobRunner } from './job-runner.js';

/**
 * Runs the `@JobHandler`s of the process (docs/architecture.md, "Jobs"); loaded by the service and the worker, not
 * by the CLI. Global so that Nest calls its shutdown hook after the feature modules' (see JobRunner).
 */
@Global()
@Module({ imports: [DiscoveryModule], providers: [JobRunner], exports: [JobRunner] })
export class JobRunnerModule {}
