// Whether the signed-in member's profile covers an issue area, so the square offers "My issue areas": asked once
// per member and profile (POST /api/posts/profile-info). A visitor, or a member without a profile, covers none
// and nothing is asked; a failed answer is only logged and the filter stays hidden.
import type { AuthUser } from '@rotunda/session';
import { useEffect, useState } from 'react';
import { fetchCoversIssueAreas } from '../api';

export function useCoversIssueAreas(user: AuthUser | null): boolean {
  const userId = user?.user_id ?? null;
  const profileId = user?.profile_id ?? null;
  // Tagged with the member it is about, so a sign-out or another sign-in never shows someone else's answer.
  const [answer, setAnswer] = useState<{ userId: string; covers: boolean } | null>(null);

  useEffect(() => {
    if (userId === null || profileId === null) return;
    const controller = new AbortController();
    fetchCoversIssueAreas(controller.signal).then(
      (covers) => setAnswer({ userId, covers }),
      (error: unknown) => {
        if (!controller.signal.aborted) console.error('Your issue areas could not be checked', error);
      },
    );
    return () => controller.abort();
  }, [userId, profileId]);

  return profileId !== null && answer !== null && answer.userId === userId && answer.covers;
}
