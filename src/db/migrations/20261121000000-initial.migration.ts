import { Migration } from '@mikro-orm/migrations';

/**
 * The initial schema. Written by hand so that the database itself enforces the invariants the
 * code relies on: one running shift per user, stop after start, unique uuids and logins, and
 * foreign keys that cannot cross accounts (every reference is (account_id, id)).
 */
export class InitialMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table accounts (
        id serial primary key,
        uuid uuid not null unique default gen_random_uuid(),
        name varchar(255) not null,
        staff_max integer check (staff_max >= 0),
        time_max_seconds integer check (time_max_seconds >= 0),
        nearly_overdue_ratio double precision not null default 0.9
          check (nearly_overdue_ratio > 0 and nearly_overdue_ratio <= 1),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );`);

    this.addSql(`
      create table users (
        id serial primary key,
        uuid uuid not null unique default gen_random_uuid(),
        account_id integer not null references accounts (id) on delete cascade,
        login varchar(255) not null check (login <> ''),
        password_hash varchar(255) not null,
        first_name varchar(255) not null default '',
        last_name varchar(255) not null default '',
        email_address varchar(255) not null default '',
        time_zone varchar(64) not null default 'UTC',
        active boolean not null default true,
        type varchar(16) not null check (type in ('owner', 'manager', 'staff')),
        hourly_rate_cents integer check (hourly_rate_cents >= 0),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (account_id, id)
      );`);
    // Logins are what Basic auth sends: unique across the service, whatever the case.
    this.addSql(`create unique index users_login_unique on users (lower(login));`);
    this.addSql(
      `create unique index users_one_owner_per_account on users (account_id) where type = 'owner';`,
    );

    this.addSql(`
      create table companies (
        id serial primary key,
        uuid uuid not null unique default gen_random_uuid(),
        account_id integer not null references accounts (id) on delete cascade,
        name varchar(255) not null,
        visibility varchar(16) not null default 'private' check (visibility in ('public', 'private', 'custom')),
        created_by_id integer,
        contact_salutation varchar(255),
        contact_first_name varchar(255),
        contact_last_name varchar(255),
        contact_email_address varchar(255),
        contact_position varchar(255),
        contact_home_phone varchar(255),
        contact_mobile_phone varchar(255),
        website varchar(255),
        main_phone varchar(255),
        fax_phone varchar(255),
        main_address varchar(255),
        main_city varchar(255),
        main_state varchar(255),
        main_postcode varchar(255),
        main_country varchar(255),
        notes text,
        latitude double precision check (latitude between -90 and 90),
        longitude double precision check (longitude between -180 and 180),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (account_id, id),
        foreign key (account_id, created_by_id) references users (account_id, id) on delete set null (created_by_id)
      );`);

    this.addSql(`
      create table projects (
        id serial primary key,
        uuid uuid not null unique default gen_random_uuid(),
        account_id integer not null references accounts (id) on delete cascade,
        company_id integer not null,
        name varchar(255) not null,
        active boolean not null default true,
        visibility varchar(16) not null default 'private' check (visibility in ('public', 'private', 'custom')),
        created_by_id integer,
        time_limit integer check (time_limit >= 0),
        time_limit_string varchar(255),
        default_tags text[] not null default '{}',
        tag_list text[] not null default '{}',
        notes text,
        hourly_rate varchar(255),
        hourly_rate_cents integer check (hourly_rate_cents >= 0),
        invoice_amount_cents integer,
        billable_by_default boolean not null default true,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (account_id, id),
        foreign key (account_id, company_id) references companies (account_id, id) on delete cascade,
        foreign key (account_id, created_by_id) references users (account_id, id) on delete set null (created_by_id)
      );`);
    this.addSql(`create index projects_company_idx on projects (company_id);`);

    for (const [table, parent] of [
      ['company_members', 'company'],
      ['project_members', 'project'],
    ] as const) {
      this.addSql(`
        create table ${table} (
          id serial primary key,
          uuid uuid not null unique default gen_random_uuid(),
          account_id integer not null references accounts (id) on delete cascade,
          ${parent}_id integer not null,
          user_id integer not null,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now(),
          unique (${parent}_id, user_id),
          foreign key (account_id, ${parent}_id) references ${parent === 'company' ? 'companies' : 'projects'} (account_id, id) on delete cascade,
          foreign key (account_id, user_id) references users (account_id, id) on delete cascade
        );`);
      this.addSql(`create index ${table}_user_idx on ${table} (user_id);`);
    }

    this.addSql(`
      create table activities (
        id serial primary key,
        uuid uuid not null unique default gen_random_uuid(),
        account_id integer not null references accounts (id) on delete cascade,
        project_id integer not null,
        name varchar(255) not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (account_id, id),
        foreign key (account_id, project_id) references projects (account_id, id) on delete cascade
      );`);
    this.addSql(`create index activities_project_idx on activities (project_id);`);

    this.addSql(`
      create table shifts (
        id serial primary key,
        uuid uuid not null unique default gen_random_uuid(),
        account_id integer not null references accounts (id) on delete cascade,
        project_id integer not null,
        user_id integer not null,
        activity_id integer,
        start timestamptz not null,
        stop timestamptz,
        time_zone varchar(64) not null default 'UTC',
        billable boolean not null default true,
        notes text,
        tag_list text[] not null default '{}',
        external_href varchar(2048),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint shifts_stop_after_start check (stop is null or stop > start),
        foreign key (account_id, project_id) references projects (account_id, id) on delete cascade,
        foreign key (account_id, user_id) references users (account_id, id) on delete cascade,
        foreign key (account_id, activity_id) references activities (account_id, id) on delete set null (activity_id)
      );`);
    // At most one running shift per user, whatever the concurrency.
    this.addSql(
      `create unique index shifts_one_running_per_user on shifts (user_id) where stop is null;`,
    );
    this.addSql(`create index shifts_project_start_idx on shifts (project_id, start);`);
    this.addSql(`create index shifts_user_start_idx on shifts (user_id, start);`);
    this.addSql(`create index shifts_account_start_idx on shifts (account_id, start);`);
    this.addSql(
      `create index shifts_activity_idx on shifts (activity_id) where activity_id is not null;`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'shifts',
      'activities',
      'project_members',
      'company_members',
      'projects',
      'companies',
      'users',
      'accounts',
    ]) {
      this.addSql(`drop table if exists ${table} cascade;`);
    }
  }
}
