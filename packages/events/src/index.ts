// Change notifications between services (ADR 0012): owners announce, read-copy keepers listen.
export {
  CHANGES_CHANNEL,
  type Change,
  type DivisionChanged,
  type OrganizationChanged,
  type ProfileChanged,
  parseChange,
} from './changes.ts';
export { type ChangeListener, type ChangeListenerOptions, listenForChanges } from './listen.ts';
export { changeStatement, publishChange, type RawExecutor } from './publish.ts';
