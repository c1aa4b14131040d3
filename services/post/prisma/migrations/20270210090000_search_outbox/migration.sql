-- The search outbox (ADR 0055): ids of documents whose index write the search engine missed while it was away,
-- in the order written, sent again by whichever replica drains them once it answers.

-- CreateTable
CREATE TABLE "search_outbox" (
    "seq" BIGSERIAL NOT NULL,
    "index_name" TEXT NOT NULL,
    "document_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "search_outbox_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
-- Each index drains its own rows in order.
CREATE INDEX "search_outbox_index_name_seq_idx" ON "search_outbox"("index_name", "seq");
