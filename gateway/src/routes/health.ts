// GET /healthz: 200 only when every service reports SERVING (and the web builds exist when served here): the
// whole product is up (`npm start` waits for it). GET /readyz: 200 when this gateway can take requests, whatever
// the services say: an orchestrator's readiness probe, so one service down answers 503 for its own calls instead
// of taking every gateway out of rotation (and the public square, login and the rest with them). /healthz also
// says how this gateway's polls of ended sessions and of the moderation snapshot are doing: details for the
// operator, never its status (ADR 0036, 0041).
import express, { type Router } from 'express';
import type { PollHealth } from '../auth/poll.ts';
import type { HealthStatus } from '../grpc/health.ts';

export interface Readiness {
  services: () => Promise<Record<string, HealthStatus>>;
  webBuilt?: () => boolean;
  /** The ended-sessions poll, when this gateway runs one. */
  endedSessions?: () => PollHealth;
  /** The moderation snapshot poll, when this gateway runs one. */
  moderationSnapshot?: () => PollHealth;
}

export function healthRouter(readiness: Readiness): Router {
  const router = express.Router();
  router.get('/', async (_req, res) => {
    const services = await readiness.services();
    const web = webState(readiness);
    const ok = Object.values(services).every((status) => status === 'SERVING') && web !== 'NOT_BUILT';
    res.setHeader('Cache-Control', 'no-store');
    const endedSessions = readiness.endedSessions?.();
    const moderationSnapshot = readiness.moderationSnapshot?.();
    res.status(ok ? 200 : 503).json({
      status: ok ? 'ok' : 'unavailable',
      services,
      web,
      ...(endedSessions ? { endedSessions } : {}),
      ...(moderationSnapshot ? { moderationSnapshot } : {}),
    });
  });
  return router;
}

const webState = ({ webBuilt }: Pick<Readiness, 'webBuilt'>) =>
  webBuilt ? (webBuilt() ? 'READY' : 'NOT_BUILT') : 'NOT_SERVED';

export function readyRouter(readiness: Pick<Readiness, 'webBuilt'>): Router {
  const router = express.Router();
  router.get('/', (_req, res) => {
    const web = webState(readiness);
    const ok = web !== 'NOT_BUILT';
    res.setHeader('Cache-Control', 'no-store');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', web });
  });
  return router;
}
