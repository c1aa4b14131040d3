-- CreateTable
CREATE TABLE "exchanged_refresh_tokens" (
    "token_digest" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "exchanged_refresh_tokens_pkey" PRIMARY KEY ("token_digest")
);

-- CreateIndex
CREATE INDEX "exchanged_refresh_tokens_expires_at_idx" ON "exchanged_refresh_tokens"("expires_at");
