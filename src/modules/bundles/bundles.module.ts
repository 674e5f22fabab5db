import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { BundleValidator } from './bundle.validator.js';
import { BundlesController } from './bundles.controller.js';
import { BundlesService } from './bundles.service.js';

@Module({
  imports: [AuthModule],
  controllers: [BundlesController],
  providers: [BundlesService, BundleValidator],
  exports: [BundlesService, BundleValidator],
})
export class BundlesModule {}
