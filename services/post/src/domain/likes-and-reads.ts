// Likes and reads (spec §4, DESIGN's fixes): one like per member and post, counted by the server whatever count
// the browser sent; every read counted, visitors' too. Popular sorts on the like count, so the index learns it at
// once; reads move the feed version at most once a second. A post the caller may not see (hidden or removed by
// moderation) is not found for likes and reads.
import { type Caller, notFound, requireMember } from '@rotunda/service-kit';
import { isId, MESSAGES, visiblePostOrThrow } from './access.ts';
import type { FeedVersion } from './feed-version.ts';
import type { LikeStore, PostStore } from './ports.ts';
import type { PostIndex } from './post-index.ts';
import { viewerOf } from './visibility.ts';

export interface LikesAndReadsDependencies {
  likes: LikeStore;
  posts: Pick<PostStore, 'findStored'>;
  postIndex: Pick<PostIndex, 'postsChanged'>;
  feedVersion: Pick<FeedVersion, 'changed' | 'readCounted'>;
}

export function createLikesAndReads({ likes, posts, postIndex, feedVersion }: LikesAndReadsDependencies) {
  return {
    /** A member likes a post once, or stops; the count is the server's (DESIGN: client counts are ignored). */
    async setLike(caller: Caller | undefined, postId: number, liked: boolean) {
      const member = requireMember(caller);
      await visiblePostOrThrow(posts, postId, viewerOf(member));
      const result = await likes.setLike(postId, member.userId, liked);
      if (!result) throw notFound(MESSAGES.postNotFound);
      // Popular sorts on the count: the index learns it at once.
      await postIndex.postsChanged([postId]);
      await feedVersion.changed();
      return { postId, liked, userId: member.userId, likesCount: result.likesCount };
    },

    async listMyLikes(caller: Caller | undefined): Promise<number[]> {
      const member = requireMember(caller);
      return likes.likedPostIds({ ...viewerOf(member), userId: member.userId });
    },

    /**
     * Anyone, visitors too: exactly one more read per call, whatever count was sent. Pages show the count, but reads
     * are frequent: the version moves for them at most once a second.
     */
    async addRead(caller: Caller | undefined, postId: number): Promise<number> {
      const reads = isId(postId) ? await likes.addRead(postId, viewerOf(caller)) : null;
      if (reads === null) throw notFound(MESSAGES.postNotFound);
      feedVersion.readCounted();
      return reads;
    },
  };
}

export type LikesAndReads = ReturnType<typeof createLikesAndReads>;
