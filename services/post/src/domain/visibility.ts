// Who sees a moderated post or comment (ADR 0041): a visible one everyone; a hidden one only its author and
// contributors; a removed one nobody. The same rule reads rows (the stores filter in SQL with the viewer) and
// files each post in the search index under who may find it.
import { type Caller, isContributor } from '@rotunda/service-kit';

export const MODERATION_STATES = ['visible', 'hidden', 'removed'] as const;
export type ModerationState = (typeof MODERATION_STATES)[number];

/** A post's or comment's moderation as stored: the reason is the contributor's (or the automatic hiding's). */
export interface ModerationMark {
  state: ModerationState;
  reason: string | null;
  /** Hidden by three members' reports, no contributor having decided since. */
  automatic: boolean;
}

/** Whoever reads: a visitor (no user id), a member, or a contributor. */
export interface Viewer {
  userId: string | null;
  contributor: boolean;
}

export const VISITOR: Viewer = { userId: null, contributor: false };

export const viewerOf = (caller: Caller | undefined): Viewer =>
  caller ? { userId: caller.userId, contributor: isContributor(caller) } : VISITOR;

export function canSee(viewer: Viewer, written: { userId: string; state: ModerationState }): boolean {
  if (written.state === 'visible') return true;
  if (written.state === 'removed') return false;
  return viewer.contributor || (viewer.userId !== null && viewer.userId === written.userId);
}

/** The search index's `seen_by` keywords of a post: who may find it. A removed post none. */
export function seenBy(post: { userId: string; state: ModerationState }): string[] {
  if (post.state === 'visible') return ['everyone'];
  if (post.state === 'hidden') return ['contributors', `author:${post.userId}`];
  return [];
}

/** The `seen_by` values a viewer's searches accept (any of them). */
export function seenByFilter(viewer: Viewer): string[] {
  return [
    'everyone',
    ...(viewer.contributor ? ['contributors'] : []),
    ...(viewer.userId ? [`author:${viewer.userId}`] : []),
  ];
}
