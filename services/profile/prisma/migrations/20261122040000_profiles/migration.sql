-- CreateTable
CREATE TABLE "profiles" (
    "profile_id" SERIAL NOT NULL,
    "user_id" TEXT,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "work_email" TEXT NOT NULL,
    "personal_email" TEXT,
    "mobile_phone" TEXT,
    "other_phone" TEXT,
    "birthday" DATE,
    "pronouns" TEXT,
    "profile_picture" TEXT,
    "user_bio" TEXT,
    "lobby_filer_id" TEXT,
    "linkedin_url" TEXT,
    "facebook_url" TEXT,
    "youtube_url" TEXT,
    "threads_url" TEXT,
    "twitter_url" TEXT,
    "instagram_url" TEXT,
    "tiktok_url" TEXT,
    "bluesky_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "profiles_pkey" PRIMARY KEY ("profile_id")
);

-- CreateTable
CREATE TABLE "job_experiences" (
    "job_id" SERIAL NOT NULL,
    "profile_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "organization_id" INTEGER NOT NULL,
    "division_id" INTEGER,
    "street_address" TEXT NOT NULL,
    "suite_number" TEXT,
    "city" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "zip_code" TEXT NOT NULL,
    "start_date" DATE NOT NULL,
    "end_date" DATE,
    "current_job" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "job_experiences_pkey" PRIMARY KEY ("job_id")
);

-- CreateTable
CREATE TABLE "issue_areas" (
    "issue_id" SERIAL NOT NULL,
    "issue_name" TEXT NOT NULL,
    "issue_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "issue_areas_pkey" PRIMARY KEY ("issue_id")
);

-- CreateTable
CREATE TABLE "user_issues" (
    "id" SERIAL NOT NULL,
    "profile_id" INTEGER NOT NULL,
    "issue_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_issues_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "profile_claims" (
    "claim_id" SERIAL NOT NULL,
    "profile_id" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "profile_claims_pkey" PRIMARY KEY ("claim_id")
);

-- CreateTable
CREATE TABLE "organizations" (
    "organization_id" INTEGER NOT NULL,
    "organization_name" TEXT NOT NULL,
    "group_type" TEXT NOT NULL,
    "logo" TEXT,
    "copied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "divisions" (
    "division_id" INTEGER NOT NULL,
    "division_name" TEXT NOT NULL,
    "division_type" TEXT NOT NULL,
    "active_division" BOOLEAN NOT NULL,
    "organization_id" INTEGER NOT NULL,
    "street_address" TEXT,
    "suite_number" TEXT,
    "city" TEXT,
    "state" TEXT,
    "zip_code" TEXT,
    "division_phone" TEXT,
    "website" TEXT,
    "copied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "divisions_pkey" PRIMARY KEY ("division_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "profiles_user_id_key" ON "profiles"("user_id");

-- CreateIndex
CREATE INDEX "profiles_work_email_idx" ON "profiles"("work_email");

-- CreateIndex
CREATE INDEX "profiles_profile_picture_idx" ON "profiles"("profile_picture");

-- CreateIndex
CREATE INDEX "job_experiences_profile_id_idx" ON "job_experiences"("profile_id");

-- CreateIndex
CREATE INDEX "job_experiences_organization_id_current_job_idx" ON "job_experiences"("organization_id", "current_job");

-- CreateIndex
CREATE INDEX "job_experiences_division_id_current_job_idx" ON "job_experiences"("division_id", "current_job");

-- CreateIndex
CREATE UNIQUE INDEX "issue_areas_issue_key_key" ON "issue_areas"("issue_key");

-- CreateIndex
CREATE INDEX "user_issues_issue_id_idx" ON "user_issues"("issue_id");

-- CreateIndex
CREATE UNIQUE INDEX "user_issues_profile_id_issue_id_key" ON "user_issues"("profile_id", "issue_id");

-- CreateIndex
CREATE INDEX "profile_claims_profile_id_status_idx" ON "profile_claims"("profile_id", "status");

-- CreateIndex
CREATE INDEX "divisions_organization_id_idx" ON "divisions"("organization_id");

-- AddForeignKey
ALTER TABLE "job_experiences" ADD CONSTRAINT "job_experiences_profile_id_fkey" FOREIGN KEY ("profile_id") REFERENCES "profiles"("profile_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_issues" ADD CONSTRAINT "user_issues_profile_id_fkey" FOREIGN KEY ("profile_id") REFERENCES "profiles"("profile_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_issues" ADD CONSTRAINT "user_issues_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issue_areas"("issue_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "profile_claims" ADD CONSTRAINT "profile_claims_profile_id_fkey" FOREIGN KEY ("profile_id") REFERENCES "profiles"("profile_id") ON DELETE CASCADE ON UPDATE CASCADE;
