import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../database/timestamped.entity.js';

@Entity({ name: 'organizations' })
export class OrganizationEntity extends TimestampedEntity {
  @Column({ type: 'varchar', length: 200 })
  name: string;
}
