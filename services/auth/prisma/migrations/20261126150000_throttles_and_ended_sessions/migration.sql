-- AlterTable
ALTER TABLE "sessions" ADD COLUMN "refresh_token_id" UUID;

-- CreateTable
CREATE TABLE "rate_limits" (
    "key" TEXT NOT NULL,
    "points" INTEGER NOT NULL,
    "expire" TIMESTAMPTZ(3),

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "ended_sessions" (
    "session_id" TEXT NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ended_sessions_pkey" PRIMARY KEY ("session_id")
);

-- CreateIndex
CREATE INDEX "rate_limits_expire_idx" ON "rate_limits"("expire");

-- CreateIndex
CREATE INDEX "ended_sessions_ended_at_idx" ON "ended_sessions"("ended_at");
