// The gRPC face of the news service (rotunda.news.v1.NewsService).

import type { NewsServiceServer } from '@rotunda/protos/news';
import { type Logger, unary } from '@rotunda/service-kit';
import { headlineLimit } from '../domain/headline-limit.ts';
import type { HeadlineRepository } from '../domain/ports.ts';

export function grpcNewsService(repository: HeadlineRepository, logger: Logger): NewsServiceServer {
  return {
    listHeadlines: unary(logger, 'ListHeadlines', async (request) => ({
      headlines: (await repository.latest(headlineLimit(request.limit))).map((headline) => ({
        title: headline.title,
        snippet: headline.snippet,
        url: headline.url,
        logo: headline.logo,
        publication: headline.publication,
        created_at: headline.createdAt,
      })),
    })),
  };
}
