import { Column, CreateDateColumn, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Base of every table: a 24-hex time-ordered id and millisecond-precision timestamps (cursor-safe). */
export abstract class TimestampedEntity {
  @PrimaryColumn({ type: 'char', length: 24 })
  id: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}

/** For append-only rows that are never updated. */
export abstract class CreatedEntity {
  @PrimaryColumn({ type: 'char', length: 24 })
  id: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'now()' })
  createdAt: Date;
}
