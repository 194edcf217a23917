import { registerEnumType } from 'type-graphql';
import { StaffType } from '../../../core/viewer';
import { OrderDirection } from '../../../core/list-shapes';
import { Visibility } from '../../../core/visibility';

export { OrderDirection, StaffType, Visibility };
registerEnumType(StaffType, {
  name: 'StaffType',
  description: 'The role of a user: the account owner, a manager, or a staff member.',
  valuesConfig: {
    OWNER: {
      description: 'The one user who opened the account: sees and may do everything in it.',
    },
    MANAGER: {
      description:
        'Manages staff members (not managers), companies, projects and activities; sees the companies and projects visible to them, their own shifts and every shift on those projects.',
    },
    STAFF: {
      description:
        'Sees the companies and projects visible to them, but only their own shifts and staff record; punches in and out and records their own time.',
    },
  },
});

registerEnumType(Visibility, {
  name: 'Visibility',
  description:
    'PUBLIC: every user of the account; PRIVATE: the owner and the creator; CUSTOM: the owner, the creator and the listed users.',
  valuesConfig: {
    PUBLIC: { description: 'Every user of the account sees it.' },
    PRIVATE: { description: 'Only the owner and the user who created it see it.' },
    CUSTOM: {
      description: 'The owner, the user who created it and the users of its member list see it.',
    },
  },
});

registerEnumType(OrderDirection, {
  name: 'OrderDirection',
  description: 'Which way a sort key sorts.',
  valuesConfig: {
    ASC: { description: 'Smallest, earliest or A first; nulls last.' },
    DESC: { description: 'Largest, latest or Z first; nulls first.' },
  },
});
