// Likes and reads (docs/product.md#4-states-and-transitions, #6-roles-and-permissions): one like per member
// and post, counted by the server whatever count the browser sent; every read counted, visitors' too. Popular
// sorts on the like count, so the index learns it at once; reads move the feed version at most once a second.
// A post the caller may not see (hidden or removed by moderation) is not found for likes and reads.
import { type Caller, notFound, requireMember } from '@rotunda/service-kit';
import { isId, MESSAGES, visiblePostOrThrow } from './access.ts';
import type { FeedVersion } from './feed-version.ts';
import { eventActor, likeEvents } from './notices.ts';
import type { LikeStore, PostStore } from './ports.ts';
import type { PostIndex } from './post-index.ts';
import type { ReadCopies } from './read-copies.ts';
import { viewerOf } from './visibility.ts';

export interface LikesAndReadsDependencies {
  likes: LikeStore;
  posts: Pick<PostStore, 'findStored'>;
  postIndex: Pick<PostIndex, 'postsChanged'>;
  feedVersion: Pick<FeedVersion, 'changed' | 'readCounted'>;
  /** The liker's names for the author's notification. */
  authors: Pick<ReadCopies, 'nameOfMember'>;
}

export function createLikesAndReads({
  likes,
  posts,
  postIndex,
  feedVersion,
  authors,
}: LikesAndReadsDependencies) {
  return {
    /**
     * A member likes a post once, or stops; the count is the server's (docs/product.md#7-the-calls-it-makes:
     * client counts are ignored). Each like set tells the post's author (ADR 0042), who hears of several
     * within the hour as one.
     */
    async setLike(caller: Caller | undefined, postId: number, liked: boolean) {
      const member = requireMember(caller);
      const post = await visiblePostOrThrow(posts, postId, viewerOf(member));
      const onLiked =
        liked && post.userId !== member.userId
          ? likeEvents(post, eventActor(member.userId, await authors.nameOfMember(member.userId)))
          : [];
      const result = await likes.setLike(postId, member.userId, liked, onLiked);
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
