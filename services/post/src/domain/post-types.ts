// The post and event types as the public square lists them (docs/product.md#3-entities-and-their-fields):
// every post type by id, the event types by name with OTHER last, one of either by id.
import { notFound } from '@rotunda/service-kit';
import { MESSAGES } from './access.ts';
import type { TypeStore } from './ports.ts';
import { type EventType, eventTypeOrder, type PostType } from './post.ts';

export function createPostTypes({ types }: { types: TypeStore }) {
  return {
    listPostTypes(): Promise<PostType[]> {
      return types.listPostTypes();
    },

    async listEventTypes(): Promise<EventType[]> {
      return (await types.listEventTypes()).sort(eventTypeOrder);
    },

    async getPostType(postTypeId: number): Promise<PostType> {
      const type = (await types.listPostTypes()).find((t) => t.postTypeId === postTypeId);
      if (!type) throw notFound(MESSAGES.postTypeNotFound);
      return type;
    },

    async getEventType(eventTypeId: number): Promise<EventType> {
      const type = (await types.listEventTypes()).find((t) => t.eventTypeId === eventTypeId);
      if (!type) throw notFound(MESSAGES.eventTypeNotFound);
      return type;
    },
  };
}

export type PostTypes = ReturnType<typeof createPostTypes>;
