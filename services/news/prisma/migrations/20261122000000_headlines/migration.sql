-- CreateTable
CREATE TABLE "headlines" (
    "id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "snippet" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "logo" TEXT NOT NULL,
    "publication" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "headlines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "headlines_url_key" ON "headlines"("url");

-- CreateIndex
CREATE INDEX "headlines_created_at_idx" ON "headlines"("created_at" DESC);
