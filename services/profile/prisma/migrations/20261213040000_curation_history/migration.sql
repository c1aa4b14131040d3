-- Curation history (issue 20): contributors' changes to profiles nobody owned, and claim decisions, with who,
-- when and each field before and after.
CREATE TABLE "profile_history" (
    "history_id" BIGSERIAL NOT NULL,
    "profile_id" INTEGER NOT NULL,
    "actor_user_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "changes" JSONB NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "profile_history_pkey" PRIMARY KEY ("history_id")
);

CREATE INDEX "profile_history_profile_id_history_id_idx" ON "profile_history"("profile_id", "history_id" DESC);

ALTER TABLE "profile_history" ADD CONSTRAINT "profile_history_profile_id_fkey" FOREIGN KEY ("profile_id") REFERENCES "profiles"("profile_id") ON DELETE CASCADE ON UPDATE CASCADE;
