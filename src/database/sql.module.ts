import { Global, Module } from '@nestjs/common';
import { SqlService } from './sql.service.js';
import { UnitOfWork } from './unit-of-work.js';

@Global()
@Module({ providers: [SqlService, UnitOfWork], exports: [SqlService, UnitOfWork] })
export class SqlModule {}
