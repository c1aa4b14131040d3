-- Idempotency keys of the create calls (ADR 0046): per caller and method, the key a client sent, a fingerprint of
-- its request and the answer given (null while the create runs), kept a day so a repeat answers it again.

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "owner" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "answer" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("owner","method","key")
);

-- CreateIndex
-- Expired keys, let go before each new one is taken.
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");
