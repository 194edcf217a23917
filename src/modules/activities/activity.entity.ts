import { Entity, ManyToOne, Property, type Ref } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Declared, DeclaredReference, Node } from '../common';
import { fields } from '../writes';
import { TenantEntity } from '../accounts';
import { Project } from '../projects';

@ObjectType({
  description: 'A kind of work within a project; a shift may name one.',
  implements: Node,
})
@Entity({ tableName: 'activities' })
export class Activity extends TenantEntity {
  @ManyToOne(() => Project, { ref: true, deleteRule: 'cascade' })
  @DeclaredReference({ id: 'projectId', legacyId: 'projectLegacyId', of: "the activity's project" })
  project!: Ref<Project>;

  @Field(() => String, { description: 'The name of the kind of work, as entered.' })
  @Property({ type: 'string', length: 255 })
  @Declared({
    filter: "The activity's name.",
    order: 'NAME',
    input: fields.requiredText(),
    legacy: { json: 'name' },
  })
  name!: string;
}
