-- Moderation (ADR 0041): each post's and comment's state, members' reports, suspensions and the moderation log.

-- AlterTable
-- 'visible', 'hidden' (its author and contributors still see it) or 'removed' (nobody sees it; the row stays for
-- the log and the queue). The reason is the contributor's, or the automatic hiding's; `automatic` while three
-- members' reports hide it and no contributor has decided.
ALTER TABLE "posts" ADD COLUMN "moderation_state" TEXT NOT NULL DEFAULT 'visible',
ADD COLUMN "moderation_reason" TEXT,
ADD COLUMN "moderation_automatic" BOOLEAN NOT NULL DEFAULT false,
ADD CONSTRAINT "posts_moderation_state_check" CHECK ("moderation_state" IN ('visible', 'hidden', 'removed'));

-- AlterTable
ALTER TABLE "comments" ADD COLUMN "moderation_state" TEXT NOT NULL DEFAULT 'visible',
ADD COLUMN "moderation_reason" TEXT,
ADD COLUMN "moderation_automatic" BOOLEAN NOT NULL DEFAULT false,
ADD CONSTRAINT "comments_moderation_state_check" CHECK ("moderation_state" IN ('visible', 'hidden', 'removed'));

-- CreateTable
-- A member's report of a post or comment; open until a contributor decides on the target (closed_at).
CREATE TABLE "reports" (
    "report_id" SERIAL NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" INTEGER NOT NULL,
    "reporter_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "reports_pkey" PRIMARY KEY ("report_id"),
    CONSTRAINT "reports_target_type_check" CHECK ("target_type" IN ('post', 'comment'))
);

-- CreateTable
-- One member's allowance of reports, as comment_allowance is of comments (a burst, then a steady rate).
CREATE TABLE "report_allowance" (
    "user_id" TEXT NOT NULL,
    "paid_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "report_allowance_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
-- A member's suspension: one per member, a new one replacing it; running while `until` is ahead.
CREATE TABLE "suspensions" (
    "user_id" TEXT NOT NULL,
    "until" TIMESTAMPTZ(3) NOT NULL,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "suspended_by" TEXT NOT NULL,

    CONSTRAINT "suspensions_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
-- Every decision, automatic hiding, suspension and lifting: who (empty for the automatic hiding), what, whom, why.
CREATE TABLE "moderation_log" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_user_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,

    CONSTRAINT "moderation_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
-- A member's repeat report of one target counts once: at most one open report per reporter and target, which an
-- INSERT … ON CONFLICT meets whatever runs at the same time.
CREATE UNIQUE INDEX "reports_open_once" ON "reports"("target_type", "target_id", "reporter_id") WHERE "closed_at" IS NULL;

-- CreateIndex
CREATE INDEX "reports_target_type_target_id_idx" ON "reports"("target_type", "target_id");

-- CreateIndex
-- The moderation snapshot's hidden authors: the few rows not visible.
CREATE INDEX "posts_moderated_idx" ON "posts"("user_id") WHERE "moderation_state" <> 'visible';

-- CreateIndex
CREATE INDEX "comments_moderated_idx" ON "comments"("user_id") WHERE "moderation_state" <> 'visible';
