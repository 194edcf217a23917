import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Pool } from 'pg';

/**
 * The hand-written floor of the benchmark: plain `pg` and `http`, answering scenario (a) (shifts
 * whose start lies in a window) and (b) (the project list) with the same JSON the service writes,
 * for the account owner. It knows nothing else: no authentication, no query language (it reads
 * only `start > "…" && start < "…"`), no GraphQL, no ORM. What the service costs above this is the
 * price of being a service.
 */
export interface FloorOptions {
  readonly databaseUrl: string;
  readonly poolMax: number;
}

const WINDOW = /^start > "([^"]+)" && start < "([^"]+)"$/;

export function createFloor(options: FloorOptions) {
  const pool = new Pool({ connectionString: options.databaseUrl, max: options.poolMax });
  const owner = pool.query<{ id: number; uuid: string; account_id: number; nearly: number }>(
    `select u.id, u.uuid, u.account_id, a.nearly_overdue_ratio as nearly from users u join accounts a on a.id = u.account_id
      where u.type = 'owner' order by u.id limit 1`,
  );

  async function shifts(where: string) {
    const match = WINDOW.exec(where);
    if (!match)
      return { status: 400, body: { error: 'floor reads only start > "…" && start < "…"' } };
    const {
      rows: [viewer],
    } = await owner;
    const { rows } = await pool.query(
      `select s.uuid, s.start, s.stop, s.notes, s.time_zone, s.billable, p.uuid as project_uuid, u.uuid as user_uuid,
              s.tag_list, a.uuid as activity_uuid, s.external_href, count(*) over () as total
         from shifts s join projects p on p.id = s.project_id join users u on u.id = s.user_id
         left join activities a on a.id = s.activity_id
        where s.account_id = $1 and s.start > $2 and s.start < $3 order by s.id limit 5000`,
      [viewer!.account_id, match[1], match[2]],
    );
    return {
      status: 200,
      body: { response: rows.map(shiftJson), count: Number(rows[0]?.total ?? 0) },
    };
  }

  async function projects() {
    const {
      rows: [viewer],
    } = await owner;
    const now = new Date();
    const { rows } = await pool.query(
      `select p.*, c.uuid as company_uuid,
              coalesce((select json_agg(json_build_object('uuid', a.uuid, 'name', a.name, 'project_uuid', p.uuid) order by a.name, a.id)
                          from activities a where a.project_id = p.id), '[]') as activities,
              coalesce((select json_agg(u.uuid order by m.id) from project_members m join users u on u.id = m.user_id
                         where m.project_id = p.id), '[]') as members,
              t.grand, t.mine
         from projects p join companies c on c.id = p.company_id
         left join lateral (
           select coalesce(sum(seconds), 0)::bigint as grand, coalesce(sum(seconds) filter (where user_id = $3), 0)::bigint as mine
             from (select user_id, stopped_seconds as seconds from project_user_totals where project_id = p.id
                   union all
                   select user_id, extract(epoch from ($2 - start)) from shifts where project_id = p.id and stop is null) parts) t on true
        where p.account_id = $1 order by p.id`,
      [viewer!.account_id, now, viewer!.id],
    );
    const { rows: running } = await pool.query(
      `select s.*, a.uuid as activity_uuid from shifts s left join activities a on a.id = s.activity_id where s.user_id = $1 and s.stop is null`,
      [viewer!.id],
    );
    const body = rows.map((p) => projectJson(p, viewer!, running[0]));
    return { status: 200, body: { response: body, count: body.length } };
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://floor');
    const answer =
      url.pathname === '/api/1/shifts.json'
        ? shifts(url.searchParams.get('where') ?? '')
        : url.pathname === '/api/1/projects.json'
          ? projects()
          : undefined;
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    answer.then(
      ({ status, body }) => {
        res
          .writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
          .end(JSON.stringify(body));
      },
      (error: unknown) => {
        console.error(error);
        res.writeHead(500).end();
      },
    );
  });
  return { server, close: () => pool.end() };
}

type Row = Record<string, unknown>;

/** The facade writes times to the whole second (`2013-08-16T05:19:26Z`, its `wireTime`). */
const wholeSeconds = (time: Date) => `${time.toISOString().slice(0, 19)}Z`;

function shiftJson(s: Row) {
  return {
    uuid: s.uuid,
    start: wholeSeconds(s.start as Date),
    stop: s.stop === null ? null : wholeSeconds(s.stop as Date),
    time_zone: s.time_zone,
    notes: s.notes,
    project_uuid: s.project_uuid,
    billable: s.billable,
    tag_list: s.tag_list,
    activity_uuid: s.activity_uuid,
    external_href: s.external_href,
    time_zone_offset: offsetSeconds(s.time_zone as string, s.start as Date),
    user_uuid: s.user_uuid,
  };
}

function projectJson(
  p: Row,
  viewer: { uuid: string; id: number; nearly: number },
  running: Row | undefined,
) {
  const grand = Number(p.grand);
  const limit = p.time_limit as number | null;
  const mine = running && running.project_id === p.id ? running : undefined;
  const json: Row = {
    uuid: p.uuid,
    name: p.name,
    visibility: p.visibility,
    active: String(p.active),
    time_limit: limit,
    time_limit_string: p.time_limit_string,
    default_tags: (p.default_tags as string[]).length
      ? (p.default_tags as string[]).join(',')
      : null,
    notes: p.notes,
    company_uuid: p.company_uuid,
    tag_list: (p.tag_list as string[]).join(','),
    hourly_rate: p.hourly_rate,
    hourly_rate_cents: p.hourly_rate_cents,
    invoice_amount:
      p.invoice_amount_cents === null ? null : (p.invoice_amount_cents as number) / 100,
    billable_by_default: p.billable_by_default,
    user_uuids: [viewer.uuid, ...(p.members as string[]).filter((u) => u !== viewer.uuid)],
    activities: p.activities,
    grand_total: grand,
    running_total: Number(p.mine),
    running: mine !== undefined,
    time_left: limit === null ? null : limit - grand,
    overdue: limit === null ? null : grand > limit,
    nearly_overdue: limit === null ? null : grand <= limit && grand >= limit * viewer.nearly,
    started_at: mine ? Math.floor((mine.start as Date).getTime() / 1000) : null,
  };
  if (!mine) return json;
  const shift = shiftJson({ ...mine, project_uuid: p.uuid, user_uuid: viewer.uuid });
  return {
    ...json,
    current_shift: shift,
    shift_notes: mine.notes,
    shift_tag_list: (mine.tag_list as string[]).join(','),
    shift_billable: mine.billable,
  };
}

/** The zone's offset from UTC at an instant, in seconds, from the platform's time zone data. */
function offsetSeconds(zone: string, at: Date): number | null {
  if (zone === 'UTC') return 0;
  try {
    const name =
      new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
        .formatToParts(at)
        .find((p) => p.type === 'timeZoneName')?.value ?? '';
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
  } catch {
    return null;
  }
}

if (require.main === module) {
  const floor = createFloor({
    databaseUrl: process.env.DATABASE_URL!,
    poolMax: Number(process.env.DB_POOL_MAX ?? 10),
  });
  floor.server.listen(Number(process.env.PORT ?? 3100), '127.0.0.1', () =>
    process.stdout.write(`floor listening\n`),
  );
  process.on('SIGTERM', () => floor.server.close(() => void floor.close()));
}
