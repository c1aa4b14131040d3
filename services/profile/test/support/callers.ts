// The callers the profile service's tests make and what they upload first: a member with an id of their own
// (and an email at an agency's domain unless one is given), and the small JPEG a profile's required picture is.
import { randomUUID } from 'node:crypto';
import type { Caller } from '@rotunda/service-kit';
import sharp from 'sharp';
import type { ProfileUnderTest } from './profile-under-test.ts';

export const member = (email = `${randomUUID().slice(0, 8)}@agency.example.org`): Caller => ({
  userId: `user-${randomUUID()}`,
  email,
  roles: [],
});

/** A picture `caller` uploads, by the URL the service answers for it. */
export async function uploadedPicture(rpc: ProfileUnderTest['rpc'], caller: Caller): Promise<string> {
  const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#1d4e89' } })
    .jpeg()
    .toBuffer();
  return (await rpc('uploadPicture', { image }, caller)).url;
}
