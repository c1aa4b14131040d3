-- CreateTable
CREATE TABLE "post_types" (
    "posttype_id" INTEGER NOT NULL,
    "post_type" TEXT NOT NULL,

    CONSTRAINT "post_types_pkey" PRIMARY KEY ("posttype_id")
);

-- CreateTable
CREATE TABLE "event_types" (
    "eventtype_id" INTEGER NOT NULL,
    "event_type" TEXT NOT NULL,

    CONSTRAINT "event_types_pkey" PRIMARY KEY ("eventtype_id")
);

-- CreateTable
CREATE TABLE "posts" (
    "post_id" SERIAL NOT NULL,
    "post_title" TEXT NOT NULL,
    "post_body" TEXT NOT NULL,
    "body_text" TEXT NOT NULL,
    "post_author" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "organization_id" INTEGER,
    "division_id" INTEGER,
    "posttype_id" INTEGER NOT NULL,
    "eventtype_id" INTEGER,
    "event_location" TEXT,
    "event_date" DATE,
    "event_start" TEXT,
    "event_end" TEXT,
    "likes_count" INTEGER NOT NULL DEFAULT 0,
    "reads" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "posts_pkey" PRIMARY KEY ("post_id"),
    -- The counters only ever move by one through the service's atomic updates; below zero is a bug.
    CONSTRAINT "posts_likes_count_check" CHECK ("likes_count" >= 0),
    CONSTRAINT "posts_reads_check" CHECK ("reads" >= 0)
);

-- CreateTable
CREATE TABLE "comments" (
    "comment_id" SERIAL NOT NULL,
    "post_id" INTEGER NOT NULL,
    "comment_author" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "comment_body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "comments_pkey" PRIMARY KEY ("comment_id")
);

-- CreateTable
CREATE TABLE "likes" (
    "post_id" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "likes_pkey" PRIMARY KEY ("post_id","user_id")
);

-- CreateTable
CREATE TABLE "authors" (
    "profile_id" INTEGER NOT NULL,
    "user_id" TEXT,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,

    CONSTRAINT "authors_pkey" PRIMARY KEY ("profile_id")
);

-- CreateTable
CREATE TABLE "organizations" (
    "organization_id" INTEGER NOT NULL,
    "organization_name" TEXT NOT NULL,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "divisions" (
    "division_id" INTEGER NOT NULL,
    "division_name" TEXT NOT NULL,
    "organization_id" INTEGER NOT NULL,

    CONSTRAINT "divisions_pkey" PRIMARY KEY ("division_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "post_types_post_type_key" ON "post_types"("post_type");

-- CreateIndex
CREATE UNIQUE INDEX "event_types_event_type_key" ON "event_types"("event_type");

-- CreateIndex
CREATE INDEX "posts_post_author_idx" ON "posts"("post_author");

-- CreateIndex
CREATE INDEX "posts_created_at_idx" ON "posts"("created_at");

-- CreateIndex
CREATE INDEX "comments_post_id_created_at_idx" ON "comments"("post_id", "created_at");

-- CreateIndex
CREATE INDEX "comments_comment_author_idx" ON "comments"("comment_author");

-- CreateIndex
CREATE INDEX "likes_user_id_idx" ON "likes"("user_id");

-- AddForeignKey
ALTER TABLE "posts" ADD CONSTRAINT "posts_posttype_id_fkey" FOREIGN KEY ("posttype_id") REFERENCES "post_types"("posttype_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "posts" ADD CONSTRAINT "posts_eventtype_id_fkey" FOREIGN KEY ("eventtype_id") REFERENCES "event_types"("eventtype_id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("post_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "likes" ADD CONSTRAINT "likes_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "posts"("post_id") ON DELETE CASCADE ON UPDATE CASCADE;
