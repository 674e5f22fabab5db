import { Injectable } from '@nestjs/common';
import { SqlService } from '../../database/sql.service.js';

/** The readiness probe's database round trip. */
@Injectable()
export class HealthRepository {
  constructor(private readonly sql: SqlService) {}

  async ping(): Promise<void> {
    await this.sql.rows('SELECT 1', [], 'health_ping');
  }
}
