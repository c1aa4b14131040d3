-- Email domains a contributor lists on an organization (verified employer, issue 20).
ALTER TABLE "organizations" ADD COLUMN "email_domains" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
