-- The people a post or comment names (issue 30): profile ids from the read copy of authors, in the order written.
-- They go with their post or comment; a deleted member's are deleted with their account (ADR 0042).

-- CreateTable
CREATE TABLE "post_mentions" (
    "post_id" INTEGER NOT NULL,
    "profile_id" INTEGER NOT NULL,
    "position" SMALLINT NOT NULL,

    CONSTRAINT "post_mentions_pkey" PRIMARY KEY ("post_id","profile_id")
);

-- CreateTable
CREATE TABLE "comment_mentions" (
    "comment_id" INTEGER NOT NULL,
    "profile_id" INTEGER NOT NULL,
    "position" SMALLINT NOT NULL,

    CONSTRAINT "comment_mentions_pkey" PRIMARY KEY ("comment_id","profile_id")
);

-- CreateIndex
-- A member's mentions, found when their account is deleted.
CREATE INDEX "post_mentions_profile_id_idx" ON "post_mentions"("profile_id");

-- CreateIndex
CREATE INDEX "comment_mentions_profile_id_idx" ON "comment_mentions"("profile_id");

-- AddForeignKey
ALTER TABLE "post_mentions" ADD CONSTRAINT "post_mentions_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("post_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_mentions" ADD CONSTRAINT "comment_mentions_comment_id_fkey" FOREIGN KEY ("comment_id") REFERENCES "comments"("comment_id") ON DELETE CASCADE ON UPDATE CASCADE;
