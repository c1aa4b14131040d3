// GET /healthz: 200 only when every service reports SERVING (and the web builds exist when served here).
import express, { type Router } from 'express';
import type { HealthStatus } from '../grpc/health.ts';

export interface Readiness {
  services: () => Promise<Record<string, HealthStatus>>;
  webBuilt?: () => boolean;
}

export function healthRouter(readiness: Readiness): Router {
  const router = express.Router();
  router.get('/', async (_req, res) => {
    const services = await readiness.services();
    const web = readiness.webBuilt ? (readiness.webBuilt() ? 'READY' : 'NOT_BUILT') : 'NOT_SERVED';
    const ok = Object.values(services).every((status) => status === 'SERVING') && web !== 'NOT_BUILT';
    res.setHeader('Cache-Control', 'no-store');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', services, web });
  });
  return router;
}
