import { Entity, ManyToOne, type Ref } from '@mikro-orm/core';
import { TenantEntity } from '../accounts';
import { Staff } from '../staff';
import { Company } from './company.entity';

/** A user listed on a company of `custom` visibility. */
@Entity({ tableName: 'company_members' })
export class CompanyMember extends TenantEntity {
  @ManyToOne(() => Company, { ref: true, deleteRule: 'cascade' })
  company!: Ref<Company>;

  @ManyToOne(() => Staff, { ref: true, deleteRule: 'cascade' })
  user!: Ref<Staff>;
}
