-- The row a keyed create made, marked in the create's own transaction (ADR 0057): a repeat of a create whose
-- process died before keeping its answer answers that row instead of creating again.
ALTER TABLE "idempotency_keys" ADD COLUMN "made" TEXT;
