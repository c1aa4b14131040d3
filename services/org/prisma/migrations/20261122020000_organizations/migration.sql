-- CreateTable
CREATE TABLE "groups" (
    "group_id" INTEGER NOT NULL,
    "group_name" TEXT NOT NULL,

    CONSTRAINT "groups_pkey" PRIMARY KEY ("group_id")
);

-- CreateTable
CREATE TABLE "organizations" (
    "organization_id" SERIAL NOT NULL,
    "organization_name" TEXT NOT NULL,
    "group_id" INTEGER NOT NULL,
    "street_address" TEXT,
    "suite_number" TEXT,
    "city" TEXT,
    "state" TEXT,
    "zip_code" TEXT,
    "website" TEXT,
    "main_phone" TEXT,
    "logo" TEXT,
    "lobby_filer_id" TEXT,
    "linkedin_url" TEXT,
    "facebook_url" TEXT,
    "youtube_url" TEXT,
    "threads_url" TEXT,
    "twitter_url" TEXT,
    "instagram_url" TEXT,
    "tiktok_url" TEXT,
    "bluesky_url" TEXT,
    "hidden" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "divisions" (
    "division_id" SERIAL NOT NULL,
    "division_name" TEXT NOT NULL,
    "division_type" TEXT NOT NULL,
    "active_division" BOOLEAN NOT NULL DEFAULT true,
    "organization_id" INTEGER NOT NULL,
    "street_address" TEXT,
    "suite_number" TEXT,
    "city" TEXT,
    "state" TEXT,
    "zip_code" TEXT,
    "division_phone" TEXT,
    "website" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "divisions_pkey" PRIMARY KEY ("division_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "groups_group_name_key" ON "groups"("group_name");

-- CreateIndex
CREATE INDEX "organizations_group_id_idx" ON "organizations"("group_id");

-- CreateIndex
CREATE INDEX "organizations_organization_name_idx" ON "organizations"("organization_name");

-- CreateIndex
CREATE INDEX "divisions_organization_id_idx" ON "divisions"("organization_id");

-- AddForeignKey
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("group_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "divisions" ADD CONSTRAINT "divisions_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("organization_id") ON DELETE CASCADE ON UPDATE CASCADE;
