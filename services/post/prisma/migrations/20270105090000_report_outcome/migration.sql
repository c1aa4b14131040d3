-- The decision that closed each report (issue 29: the reporter's closed report is their notice of the outcome).

-- AlterTable
-- 'dismiss', 'hide', 'restore' or 'remove', written with closed_at by the decision; null while open.
ALTER TABLE "reports" ADD COLUMN "outcome" TEXT,
ADD CONSTRAINT "reports_outcome_check" CHECK ("outcome" IN ('dismiss', 'hide', 'restore', 'remove'));

-- Backfill: a decision closes its target's open reports in the transaction that logs it, so the decision that closed
-- a report is the target's latest decision logged no later than the report's closing (the log's time is that
-- transaction's start, its closed_at a moment after).
UPDATE "reports" r SET "outcome" = (
    SELECT l."action" FROM "moderation_log" l
    WHERE l."target_type" = r."target_type" AND l."target_id" = r."target_id"
      AND l."action" IN ('dismiss', 'hide', 'restore', 'remove') AND l."at" <= r."closed_at"
    ORDER BY l."at" DESC, l."id" DESC LIMIT 1)
WHERE r."closed_at" IS NOT NULL;

-- CreateIndex
-- A member's own reports, newest first.
CREATE INDEX "reports_reporter_id_created_at_idx" ON "reports"("reporter_id", "created_at" DESC);
