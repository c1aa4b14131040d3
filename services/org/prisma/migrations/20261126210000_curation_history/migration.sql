-- Curation history (issue 20): who changed an organization or its divisions, when, and each field before and after.
CREATE TABLE "organization_history" (
    "history_id" BIGSERIAL NOT NULL,
    "organization_id" INTEGER NOT NULL,
    "actor_user_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "changes" JSONB NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organization_history_pkey" PRIMARY KEY ("history_id")
);

CREATE INDEX "organization_history_organization_id_history_id_idx" ON "organization_history"("organization_id", "history_id" DESC);

ALTER TABLE "organization_history" ADD CONSTRAINT "organization_history_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;
