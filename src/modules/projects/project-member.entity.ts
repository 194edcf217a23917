import { Entity, ManyToOne, type Ref } from '@mikro-orm/core';
import { TenantEntity } from '../accounts';
import { Staff } from '../staff';
import { Project } from './project.entity';

/** A user listed on a project of `custom` visibility. */
@Entity({ tableName: 'project_members' })
export class ProjectMember extends TenantEntity {
  @ManyToOne(() => Project, { ref: true, deleteRule: 'cascade' })
  project!: Ref<Project>;

  @ManyToOne(() => Staff, { ref: true, deleteRule: 'cascade' })
  user!: Ref<Staff>;
}
