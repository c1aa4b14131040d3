// Whether an image upload (a logo, a profile picture) may be read at all, decided before any of its body is: at
// most UPLOADS_AT_ONCE held in this process's memory at once (503 past it) and UPLOADS_AT_ONCE_PER_MEMBER of one
// member's (429), so a few clients cannot fill the gateway with 10 MB bodies; then the member's hourly allowance,
// which the auth service counts for every gateway (ConsumeQuota 'image-upload'; 429 with Retry-After past it).
// A refused upload is answered without its body being read (ADR 0038).
import { waitInWords } from '@rotunda/rules';
import type { Request } from 'express';
import { callerOf } from '../auth/middleware.ts';
import type { ServiceClients } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { HttpError } from './errors.ts';

export const UPLOAD_ADMISSION_MESSAGES = {
  busy: 'Many images are being uploaded right now. Please try again in a few seconds.',
  memberBusy: 'Your other uploads are still being sent. Please wait for them to finish, then try again.',
  tooMany: (wait: string) => `You have uploaded too many images in the last hour. Try again in ${wait}.`,
} as const;

/** Seconds a client told 503 waits: a slot frees as soon as one upload ends, usually within seconds. */
export const BUSY_RETRY_AFTER_SECONDS = 5;
/** Seconds a member whose own uploads are under way waits before sending another. */
export const MEMBER_BUSY_RETRY_AFTER_SECONDS = 5;

export interface UploadLimits {
  /** Uploads read and handled at once in this process. */
  atOnce: number;
  /** Uploads of one member under way at once in this process. */
  perMember: number;
}

export interface UploadAdmission {
  /**
   * Admits `req`'s upload or throws the refusal (503, 429). An admitted upload holds its places until its answer
   * is done, since its bytes stay in memory while the service handles them.
   */
  admit: (req: Request) => Promise<void>;
  /** Uploads under way now (for tests and operators). */
  underWay: () => number;
}

export function uploadAdmission(
  clients: Pick<ServiceClients, 'auth' | 'deadlineMs'>,
  { atOnce, perMember }: UploadLimits,
): UploadAdmission {
  const rpc = serviceCaller(clients, 'auth');
  let underWay = 0;
  const byMember = new Map<string, number>();

  /** Takes a place for `member`'s upload, or throws; the returned function gives it back (once). */
  function take(member: string): () => void {
    const mine = byMember.get(member) ?? 0;
    // The member's own limit first: a member flooding uploads is told so, rather than told the gateway is busy.
    if (mine >= perMember)
      throw new HttpError(429, UPLOAD_ADMISSION_MESSAGES.memberBusy, MEMBER_BUSY_RETRY_AFTER_SECONDS);
    if (underWay >= atOnce)
      throw new HttpError(503, UPLOAD_ADMISSION_MESSAGES.busy, BUSY_RETRY_AFTER_SECONDS);
    underWay += 1;
    byMember.set(member, mine + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      underWay -= 1;
      const left = (byMember.get(member) ?? 1) - 1;
      if (left > 0) byMember.set(member, left);
      else byMember.delete(member);
    };
  }

  return {
    async admit(req) {
      const member = callerOf(req).userId;
      const giveBack = take(member);
      // 'close' comes once the answer is sent or the client has gone, whichever way the upload ends.
      req.res?.once('close', giveBack);
      // Counted only once a place is held: an upload refused as busy costs none of the member's allowance.
      const { retry_after_seconds: wait } = await rpc(req, clients.auth.consumeQuota, {
        quota: 'image-upload',
      });
      if (wait > 0) throw new HttpError(429, UPLOAD_ADMISSION_MESSAGES.tooMany(waitInWords(wait)), wait);
    },
    underWay: () => underWay,
  };
}
