-- Verified employer (issue 20): the domain of the owner's confirmed account email on each profile, and the
-- domains that count on the read copy of each organization (filled by the next copy from the org service).
ALTER TABLE "profiles" ADD COLUMN "owner_email_domain" TEXT;
ALTER TABLE "organizations" ADD COLUMN "email_domains" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];

-- Profiles owned through a confirmed claim: the claimant's account email, recorded when they claimed. Profiles
-- their owner created get theirs when the owner next signs in (the account's email lives in the auth service).
UPDATE "profiles" AS p
SET "owner_email_domain" = regexp_replace(lower(split_part(c."claimant_email", '@', 2)), '^www\.', '')
FROM "profile_claims" AS c
WHERE c."profile_id" = p."profile_id" AND c."user_id" = p."user_id" AND c."status" = 'confirmed'
  AND c."claimant_email" LIKE '%_@_%';
