import { Global, Module } from '@nestjs/common';
import { SqlService } from './sql.service.js';

@Global()
@Module({ providers: [SqlService], exports: [SqlService] })
export class SqlModule {}
