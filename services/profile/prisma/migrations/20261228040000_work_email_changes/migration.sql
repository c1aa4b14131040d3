-- Issue 28 (ADR 0037): when a profile's work email last changed after it was created, and who changed it. A
-- claim matching a work email changed in the last 30 days waits for a contributor other than the one who changed
-- it. Filled from the curation history, where every contributor's change of an unowned profile's work email is.
ALTER TABLE "profiles" ADD COLUMN "work_email_changed_at" TIMESTAMPTZ(3);
ALTER TABLE "profiles" ADD COLUMN "work_email_changed_by" TEXT;

UPDATE "profiles" p
SET "work_email_changed_at" = h."at", "work_email_changed_by" = h."actor_user_id"
FROM (
    SELECT DISTINCT ON ("profile_id") "profile_id", "actor_user_id", "at"
    FROM "profile_history"
    WHERE "changes" @> '[{"field": "work_email"}]'::jsonb
    ORDER BY "profile_id", "history_id" DESC
) h
WHERE p."profile_id" = h."profile_id";
