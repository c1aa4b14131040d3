// GET /api/news: the headlines array of docs/product.md#7-the-calls-it-makes, from the news service, briefly
// cached for visitors, and the last answer again while the news service cannot answer (its database away).
import express, { type Router } from 'express';
import { call, type ServiceClients } from '../grpc/clients.ts';
import { microCache } from '../http/micro-cache.ts';
import { keptThroughOutage } from '../telemetry/outage.ts';

export interface HeadlineJson {
  title: string;
  snippet: string;
  url: string;
  logo: string;
  publication: string;
  createdAt: string | null;
}

export function newsRouter(
  clients: Pick<ServiceClients, 'news' | 'deadlineMs'>,
  cacheSeconds: number,
): Router {
  const router = express.Router();
  const cache = microCache<HeadlineJson[]>(cacheSeconds * 1000, Date.now, keptThroughOutage('headlines'));
  router.get('/', async (req, res) => {
    const headlines = await cache.get(async () => {
      const answer = await call(
        'news',
        clients.news,
        clients.news.listHeadlines,
        { limit: 0 },
        {
          requestId: req.id as string,
          deadlineMs: clients.deadlineMs,
        },
      );
      return answer.headlines.map((headline) => ({
        title: headline.title,
        snippet: headline.snippet,
        url: headline.url,
        logo: headline.logo,
        publication: headline.publication,
        createdAt: headline.created_at?.toISOString() ?? null,
      }));
    });
    res.setHeader('Cache-Control', `public, max-age=${cacheSeconds}`);
    res.json(headlines);
  });
  return router;
}
