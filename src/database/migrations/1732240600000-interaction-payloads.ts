import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace and the reply of a turn are written on every send and only ever read back whole: store them as
 * `json` (validated text) rather than `jsonb` (parsed into a binary tree on insert), and compress them with lz4
 * rather than pglz when they are large. Both cut PostgreSQL's CPU per turn on the busiest route.
 */
export class InteractionPayloads1732240600000 implements MigrationInterface {
  name = 'InteractionPayloads1732240600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE interactions
        ALTER COLUMN trace TYPE json USING trace::json,
        ALTER COLUMN reply TYPE json USING reply::json,
        ALTER COLUMN trace SET COMPRESSION lz4,
        ALTER COLUMN reply SET COMPRESSION lz4
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE interactions
        ALTER COLUMN trace TYPE jsonb USING trace::jsonb,
        ALTER COLUMN reply TYPE jsonb USING reply::jsonb,
        ALTER COLUMN trace SET COMPRESSION default,
        ALTER COLUMN reply SET COMPRESSION default
    `);
  }
}
