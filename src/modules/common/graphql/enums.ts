import { registerEnumType } from 'type-graphql';
import { StaffType } from '../../../core/viewer';

export { StaffType };
registerEnumType(StaffType, {
  name: 'StaffType',
  description: 'The role of a user: the account owner, a manager, or a staff member.',
});

export enum Visibility {
  PUBLIC = 'public',
  PRIVATE = 'private',
  CUSTOM = 'custom',
}
registerEnumType(Visibility, {
  name: 'Visibility',
  description:
    'PUBLIC: every user of the account; PRIVATE: the owner and the creator; CUSTOM: the owner, the creator and the listed users.',
});

export enum OrderDirection {
  ASC = 'asc',
  DESC = 'desc',
}
registerEnumType(OrderDirection, { name: 'OrderDirection' });
