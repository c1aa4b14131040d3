// Change notifications between services (ADR 0012): owners announce, read-copy keepers listen. Recorded events
// (ADR 0042): owners record in their outbox, consumers read it from their cursor.
export {
  CHANGES_CHANNEL,
  type Change,
  type DivisionChanged,
  type OrganizationChanged,
  type ProfileChanged,
  parseChange,
} from './changes.ts';
export { type ChannelListener, type ChannelListenerOptions, listenToChannel } from './channel.ts';
export { consumeEvents, type EventConsumer, type EventConsumerOptions } from './consume.ts';
export type {
  AccountDeleted,
  ClaimDecided,
  ContentModerated,
  DomainEvent,
  EventActor,
  EventTopic,
  MemberMentioned,
  PostCommented,
  PostLiked,
  PostPublished,
  RecordedEvent,
  ReportDecided,
} from './events.ts';
export { type ChangeListener, type ChangeListenerOptions, listenForChanges } from './listen.ts';
export {
  EVENTS_WAKE_CHANNEL,
  ensureEventTables,
  eventsSchemaOf,
  keepOutbox,
  type OutboxUpkeepOptions,
  recordEvent,
} from './outbox.ts';
export { changeStatement, publishChange, type RawExecutor } from './publish.ts';
