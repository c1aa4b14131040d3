// Writing to Elasticsearch in bulk: a prepared document as the index stores it, the batch size, and a bulk
// response's refusals, some of which a write may expect (a generation that is not there, a newer copy).
import type { estypes } from '@elastic/elasticsearch';
import type { PreparedDocument } from '../semantics.ts';

/** Documents per bulk request. */
export const BULK_BATCH = 1000;

/** A prepared document as the index's _source. */
export function sourceOf(document: PreparedDocument): Record<string, unknown> {
  const sort: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(document.sort)) if (value !== null) sort[name] = value;
  return {
    id: document.id,
    text: document.text,
    keywords: document.keywords,
    sort,
    ...(document.stored === null ? {} : { stored: document.stored }),
  };
}

/** One item of a bulk answer, by its operation. */
export type BulkItem = estypes.BulkResponse['items'][number];

/** A bulk item Elasticsearch answered with an error of this type. */
export const failedWith = (item: estypes.BulkResponseItem | undefined, type: string) =>
  item?.error?.type === type;

/**
 * Throws the first item Elasticsearch refused, leaving out those `expected` (given each item and its place in the
 * request).
 */
export function throwOnRefusal(
  response: estypes.BulkResponse,
  expected: (item: BulkItem, at: number) => boolean = () => false,
): void {
  if (!response.errors) return;
  for (const [at, item] of response.items.entries()) {
    if (expected(item, at)) continue;
    for (const result of Object.values(item)) {
      // Deleting a missing document answers 404 without an error: not a failure for remove().
      if (result?.error) {
        throw new Error(
          `search: Elasticsearch refused ${result._id}: ${result.error.type}: ${result.error.reason}`,
        );
      }
    }
  }
}
