-- Issue 28 (ADR 0037). Who confirmed an organization's website, and when: only a confirmed website's host counts
-- for the Verified employer badge. Existing websites count only where a contributor's edit is on record (the
-- latest editor confirmed what the form showed); a member's organization waits for a contributor.
ALTER TABLE "organizations" ADD COLUMN "website_confirmed_by" TEXT;
ALTER TABLE "organizations" ADD COLUMN "website_confirmed_at" TIMESTAMPTZ(3);

UPDATE "organizations" o
SET "website_confirmed_by" = h."actor_user_id", "website_confirmed_at" = h."at"
FROM (
    SELECT DISTINCT ON ("organization_id") "organization_id", "actor_user_id", "at"
    FROM "organization_history"
    WHERE "action" = 'organization_edited'
    ORDER BY "organization_id", "history_id" DESC
) h
WHERE o."organization_id" = h."organization_id" AND o."website" IS NOT NULL;

-- Organizations with no history at all were written by the demo seed or the scale seed: the operator's own data.
UPDATE "organizations" o
SET "website_confirmed_by" = 'seed', "website_confirmed_at" = o."created_at"
WHERE o."website" IS NOT NULL AND o."website_confirmed_by" IS NULL
  AND NOT EXISTS (SELECT 1 FROM "organization_history" h WHERE h."organization_id" = o."organization_id");

-- The folded name (@rotunda/rules foldName: composed, unseen characters dropped, accents stripped, lower case,
-- spaces single): unique, so two organizations whose names read alike cannot both exist, even when added at once.
-- Keyed here the way foldName keys; the service re-keys at start any row whose key differs from foldName's (it
-- alone knows every script's case), and leaves unkeyed the later of two rows that already read alike.
ALTER TABLE "organizations" ADD COLUMN "name_key" TEXT;

UPDATE "organizations" o
SET "name_key" = k."key"
FROM (
    SELECT "organization_id", "key",
           row_number() OVER (PARTITION BY "key" ORDER BY "organization_id") AS "nth"
    FROM (
        SELECT "organization_id",
               btrim(regexp_replace(lower(regexp_replace(
                   normalize(regexp_replace(normalize("organization_name", NFC),
                       '[\u0001-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\ufffd]',
                       '', 'g'), NFD),
                   '[\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]',
                   '', 'g')), '\s+', ' ', 'g')) AS "key"
        FROM "organizations"
    ) folded
) k
WHERE o."organization_id" = k."organization_id" AND k."nth" = 1;

CREATE UNIQUE INDEX "organizations_name_key_key" ON "organizations"("name_key");
