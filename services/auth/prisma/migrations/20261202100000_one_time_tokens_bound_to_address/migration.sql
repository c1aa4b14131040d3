-- Confirmation and reset links are bound to the address they were mailed to: a link keeps working only while
-- the account still has that email.
ALTER TABLE "one_time_tokens" ADD COLUMN "email" TEXT;

-- Open links of built-in accounts were mailed to the address the account has now.
UPDATE "one_time_tokens" AS t SET "email" = u."email" FROM "users" AS u WHERE u."id" = t."user_id";

-- The others (Keycloak accounts, not in this schema) cannot be bound: they are spent, and a new link is asked for.
UPDATE "one_time_tokens" SET "email" = '', "used_at" = COALESCE("used_at", now()) WHERE "email" IS NULL;

ALTER TABLE "one_time_tokens" ALTER COLUMN "email" SET NOT NULL;
