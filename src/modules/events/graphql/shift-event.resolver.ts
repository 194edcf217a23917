import { Arg, ID, Resolver, Root, Subscription, type SubscriptionHandlerData } from 'type-graphql';
import { renewedContext, type RequestContext } from '../../../core/request-context';
import { isShiftVisible, type ShiftEvent, type ShiftEventKind } from '../../shifts';
import { SHIFT_EVENTS_TOPIC } from '../live-shift-events';
import { ShiftEventKindEnum, ShiftEventType } from './shift-event.types';

interface ShiftEventArgs {
  kinds?: ShiftEventKind[] | null;
  projectId?: string | null;
}

/**
 * The subscription's arguments, then the shift list's rule, read per event on a fresh context (the
 * subscriber's lives as long as the connection), so a manager who loses a project stops hearing of
 * it. The fresh context comes from `recheck`, which first asks whether the subscriber's
 * credentials still hold with the same role; when they do not, nothing more is heard (and the
 * connection is closed).
 */
async function mayHear({
  payload,
  args,
  context,
}: SubscriptionHandlerData<ShiftEvent, ShiftEventArgs, RequestContext>): Promise<boolean> {
  const { shift, kind } = payload;
  if (args.kinds?.length && !args.kinds.includes(kind)) return false;
  if (args.projectId && args.projectId.toLowerCase() !== shift.projectId) return false;
  const current = context.recheck ? await context.recheck() : renewedContext(context);
  return current !== undefined && isShiftVisible(current, shift);
}

@Resolver()
export class ShiftEventResolver {
  @Subscription(() => ShiftEventType, {
    description:
      'Punches and shift changes in your account, as they commit, limited to the shifts you can see. Over graphql-ws at /graphql.',
    topics: SHIFT_EVENTS_TOPIC,
    topicId: ({ context }: { context: RequestContext }) => context.viewer.accountId,
    filter: mayHear,
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
  ): ShiftEventType {
    return event;
  }
}
