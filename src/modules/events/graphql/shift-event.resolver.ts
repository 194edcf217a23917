import { filter, Repeater } from '@graphql-yoga/subscription';
import type { GraphQLSchema } from 'graphql';
import {
  Arg,
  Ctx,
  FieldResolver,
  ID,
  Resolver,
  Root,
  Subscription,
  type PubSub,
  type SubscribeResolverData,
} from 'type-graphql';
import { NotFoundError } from '../../../core/errors';
import { renewedContext, type RequestContext } from '../../../core/request-context';
import { Project, visibleProject, type ProjectService } from '../../projects';
import { isListedSnapshotVisible } from '../../rule-forms';
import {
  isDeletedShiftVisible,
  isShiftVisible,
  Shift,
  type ShiftEvent,
  type ShiftEventKind,
  type ShiftService,
} from '../../shifts';
import { SHIFT_EVENTS_TOPIC } from '../live-shift-events';
import { ShiftEventKindEnum, ShiftEventType, snapshotType } from './shift-event.types';

interface ShiftEventArgs {
  kinds?: ShiftEventKind[] | null;
  projectId?: string | null;
}

/**
 * The live events each schema listens on (createSchema registers them): the subscription's
 * `subscribe` is static, and a process may build more than one schema (tests do).
 */
interface EventSource {
  readonly pubSub: PubSub;
  readonly projects: ProjectService;
}
const eventSources = new WeakMap<GraphQLSchema, EventSource>();

export function registerShiftEventSource(schema: GraphQLSchema, source: EventSource): void {
  eventSources.set(schema, source);
}

/**
 * The subscription's arguments, then the shift list's rule, read per event on a fresh context (the
 * subscriber's lives as long as the connection), so a manager who loses a project stops hearing of
 * it. The fresh context comes from `recheck`, which first asks whether the subscriber's
 * credentials still hold with the same role; when they do not, nothing more is heard (and the
 * connection is closed).
 */
async function mayHear(
  event: ShiftEvent,
  args: ShiftEventArgs,
  context: RequestContext,
): Promise<boolean> {
  const { shift, kind } = event;
  if (args.kinds?.length && !args.kinds.includes(kind)) return false;
  if (args.projectId && args.projectId.toLowerCase() !== shift.projectId) return false;
  const current = context.recheck ? await context.recheck() : renewedContext(context);
  if (current === undefined) return false;
  // A deletion is heard by who could see the shift as it went: its project may be gone with it.
  const listed = event.listed;
  if (listed)
    return isDeletedShiftVisible(current.viewer, { userId: shift.userLegacyId }, () =>
      isListedSnapshotVisible(current.viewer, listed),
    );
  return isShiftVisible(current, shift);
}

/**
 * The events of the pub/sub's messages (one per change), one at a time, each taken before the
 * next is read. A Repeater, so an unsubscribe ends the pub/sub subscription at once.
 */
function eventsOf(messages: AsyncIterable<ShiftEvent[]>): AsyncIterable<ShiftEvent> {
  return new Repeater<ShiftEvent>(async (push, stop) => {
    const iterator = messages[Symbol.asyncIterator]();
    let stopped = false;
    void stop.then(() => {
      stopped = true;
      void iterator.return?.();
    });
    while (!stopped) {
      const next = await Promise.race([iterator.next(), stop.then(() => undefined)]);
      if (!next || next.done) break;
      for (const event of next.value) {
        if (stopped) break;
        await push(event);
      }
    }
    stop();
  });
}

@Resolver(() => ShiftEventType)
export class ShiftEventResolver {
  constructor(private readonly shifts: ShiftService) {}

  @Subscription(() => ShiftEventType, {
    description:
      'Punches and shift changes in your account, as they commit, limited to the shifts you can see. Over graphql-ws at /graphql. An unknown or hidden `projectId` is NOT_FOUND at subscribe time.',
    subscribe: async ({
      args,
      context,
      info,
    }: SubscribeResolverData<unknown, ShiftEventArgs, RequestContext>) => {
      const source = eventSources.get(info.schema);
      if (!source) throw new Error('no live events registered for this schema');
      // Refused now, as `project(id:)` would refuse it (NOT_FOUND), rather than an endless silence.
      if (args.projectId) await source.projects.get(context, { id: args.projectId });
      // Repeater-based, so an unsubscribe ends the pub/sub subscription at once.
      return filter((event: ShiftEvent) => mayHear(event, args, context))(
        eventsOf(
          source.pubSub.subscribe(SHIFT_EVENTS_TOPIC, context.viewer.accountId) as AsyncIterable<
            ShiftEvent[]
          >,
        ),
      );
    },
  })
  shiftEvents(
    @Root() event: ShiftEvent,
    @Arg('kinds', () => [ShiftEventKindEnum], {
      nullable: true,
      description: 'Only these kinds; all without.',
    })
    _kinds: ShiftEventKind[] | undefined,
    @Arg('projectId', () => ID, { nullable: true, description: 'Only shifts of this project.' })
    _projectId: string | undefined,
  ): ShiftEvent & Pick<ShiftEventType, 'snapshot'> {
    return { ...event, snapshot: snapshotType(event.shift) };
  }

  @FieldResolver(() => Shift, {
    nullable: true,
    description:
      'The shift as `shift(id:)` answers it now; null for SHIFT_DELETED (see `deletedShiftId`) or when it is gone since.',
  })
  async shift(@Root() event: ShiftEvent, @Ctx() ctx: RequestContext): Promise<Shift | null> {
    if (event.kind === 'SHIFT_DELETED') return null;
    try {
      return await this.shifts.get(ctx, { id: null, legacyId: event.shift.legacyId });
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  @FieldResolver(() => ID, {
    nullable: true,
    description: 'For SHIFT_DELETED, the id of the deleted shift: evict it from a client cache.',
  })
  deletedShiftId(@Root() event: ShiftEvent): string | null {
    return event.kind === 'SHIFT_DELETED' ? event.shift.id : null;
  }

  @FieldResolver(() => Project, {
    nullable: true,
    description:
      "The shift's project with its totals, as `project(id:)` answers it now; null when the caller may not see it.",
  })
  project(@Root() event: ShiftEvent, @Ctx() ctx: RequestContext) {
    return visibleProject(ctx, event.shift.projectLegacyId);
  }
}
