-- Confirmation and reset links name the account by the identity provider's id: with Keycloak the account is
-- not in this schema's users table, so the link may not point at it.
ALTER TABLE "one_time_tokens" DROP CONSTRAINT "one_time_tokens_user_id_fkey";
