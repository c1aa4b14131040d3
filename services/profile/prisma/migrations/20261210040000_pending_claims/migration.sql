-- A pending claim no longer makes the claimant the owner: profiles whose owner came only with a claim still
-- pending are unowned again until a contributor confirms it.
UPDATE "profiles" AS p SET "user_id" = NULL
FROM "profile_claims" AS c
WHERE c."profile_id" = p."profile_id" AND c."status" = 'pending' AND c."user_id" = p."user_id";

-- AlterTable
ALTER TABLE "profile_claims" ADD COLUMN "claimant_first_name" TEXT NOT NULL DEFAULT '',
ADD COLUMN "claimant_last_name" TEXT NOT NULL DEFAULT '',
ADD COLUMN "claimant_email" TEXT NOT NULL DEFAULT '';

-- One pending claim per profile, and one per member.
CREATE UNIQUE INDEX "profile_claims_pending_profile_key" ON "profile_claims"("profile_id") WHERE "status" = 'pending';
CREATE UNIQUE INDEX "profile_claims_pending_user_key" ON "profile_claims"("user_id") WHERE "status" = 'pending';

-- CreateTable
CREATE TABLE "directory_downloads" (
    "user_id" TEXT NOT NULL,
    "window_started_at" TIMESTAMPTZ(3) NOT NULL,
    "downloads" INTEGER NOT NULL,

    CONSTRAINT "directory_downloads_pkey" PRIMARY KEY ("user_id")
);
