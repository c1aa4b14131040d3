-- A refresh token used again within seconds of its rotation, while its successor is unused, is answered that
-- successor (ADR 0036). Built-in sessions remember the refresh token they rotated away from and when.
ALTER TABLE "sessions" ADD COLUMN "previous_refresh_token_id" UUID,
ADD COLUMN "rotated_at" TIMESTAMPTZ(3);

-- Keycloak mode: a claim is only pending until Keycloak has exchanged the token (exchanged_at); the answer it
-- gave is kept sealed with a key derived from the token itself, for the grace period only.
ALTER TABLE "exchanged_refresh_tokens" ADD COLUMN "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN "exchanged_at" TIMESTAMPTZ(3),
ADD COLUMN "successor_digest" TEXT,
ADD COLUMN "successor_sealed" BYTEA,
ADD COLUMN "grace_until" TIMESTAMPTZ(3);

-- Rows from before were kept only for exchanged tokens.
UPDATE "exchanged_refresh_tokens" SET "exchanged_at" = "claimed_at";

-- CreateIndex
CREATE INDEX "exchanged_refresh_tokens_successor_digest_idx" ON "exchanged_refresh_tokens"("successor_digest");

-- CreateIndex
CREATE INDEX "exchanged_refresh_tokens_grace_until_idx" ON "exchanged_refresh_tokens"("grace_until");
