// Test helper: members made through the real flow (registration, the mailed confirmation, login) for suites that
// need accounts of their own, each logged in once for the whole suite (ApiSession renews its token), optionally
// with a profile of their own made as the create-profile steps make it.
import type { APIRequestContext } from '@playwright/test';
import { type Account, registerAccount } from './accounts.ts';
import { ApiSession } from './api-session.ts';
import { type ApiProfile, createOwnProfile } from './profiles.ts';

export interface Member {
  account: Account;
  session: ApiSession;
  profile: ApiProfile | undefined;
}

/** A new confirmed member, logged in; with `withProfile`, owning a complete profile (picture, current job). */
export async function newMember(
  request: APIRequestContext,
  person: { firstName: string; lastName: string },
  { withProfile, title }: { withProfile: boolean; title?: string },
): Promise<Member> {
  const account = await registerAccount(request, true, person);
  const session = await ApiSession.logIn(request, account);
  const profile = withProfile
    ? await createOwnProfile(
        request,
        { token: await session.token(), user: session.user },
        account.email,
        title,
      )
    : undefined;
  return { account, session, profile };
}
