-- CreateTable
CREATE TABLE "notifications" (
    "id" BIGSERIAL NOT NULL,
    "user_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "latest_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read" BOOLEAN NOT NULL DEFAULT false,
    "actor_user_id" TEXT,
    "actor_profile_id" BIGINT,
    "actor_first_name" TEXT NOT NULL DEFAULT '',
    "actor_last_name" TEXT NOT NULL DEFAULT '',
    "target_type" TEXT NOT NULL,
    "target_id" BIGINT NOT NULL,
    "target_post_id" BIGINT,
    "post_title" TEXT NOT NULL DEFAULT '',
    "details" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_likers" (
    "notification_id" BIGINT NOT NULL,
    "user_id" TEXT NOT NULL,
    "profile_id" BIGINT,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "liked_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notification_likers_pkey" PRIMARY KEY ("notification_id","user_id")
);

-- CreateTable
CREATE TABLE "preferences" (
    "user_id" TEXT NOT NULL,
    "email_digest" TEXT NOT NULL DEFAULT 'weekly',
    "email_now_mention" BOOLEAN NOT NULL DEFAULT true,
    "email_now_claim" BOOLEAN NOT NULL DEFAULT true,
    "email_now_moderation" BOOLEAN NOT NULL DEFAULT true,
    "unsubscribe_token" TEXT NOT NULL,
    "last_digest_at" TIMESTAMPTZ(3),

    CONSTRAINT "preferences_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "handled_events" (
    "key" TEXT NOT NULL,
    "handled_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "handled_events_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "recent_posts" (
    "post_id" BIGINT NOT NULL,
    "title" TEXT NOT NULL,
    "issue_area_ids" INTEGER[] NOT NULL,
    "author_user_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "recent_posts_pkey" PRIMARY KEY ("post_id")
);

-- CreateIndex
CREATE INDEX "notifications_user_id_latest_at_id_idx" ON "notifications"("user_id", "latest_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "notifications_user_id_kind_target_id_idx" ON "notifications"("user_id", "kind", "target_id");

-- CreateIndex
CREATE INDEX "notifications_actor_user_id_idx" ON "notifications"("actor_user_id");

-- CreateIndex
CREATE INDEX "notification_likers_user_id_idx" ON "notification_likers"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "preferences_unsubscribe_token_key" ON "preferences"("unsubscribe_token");

-- CreateIndex
CREATE INDEX "handled_events_handled_at_idx" ON "handled_events"("handled_at");

-- CreateIndex
CREATE INDEX "recent_posts_created_at_idx" ON "recent_posts"("created_at");

-- CreateIndex
CREATE INDEX "recent_posts_author_user_id_idx" ON "recent_posts"("author_user_id");

-- AddForeignKey
ALTER TABLE "notification_likers" ADD CONSTRAINT "notification_likers_notification_id_fkey" FOREIGN KEY ("notification_id") REFERENCES "notifications"("id") ON DELETE CASCADE ON UPDATE CASCADE;
