-- Agency sign-in: the agencies whose identity providers Keycloak brokers, their email domains (one agency per
-- domain), and the brokered sign-ins begun and not yet finished.
CREATE TABLE "agencies" (
    "alias" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "protocol" TEXT NOT NULL,
    "metadata_url" TEXT NOT NULL,
    "client_id" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agencies_pkey" PRIMARY KEY ("alias")
);

CREATE TABLE "agency_domains" (
    "domain" TEXT NOT NULL,
    "alias" TEXT NOT NULL,

    CONSTRAINT "agency_domains_pkey" PRIMARY KEY ("domain")
);

CREATE INDEX "agency_domains_alias_idx" ON "agency_domains"("alias");

ALTER TABLE "agency_domains" ADD CONSTRAINT "agency_domains_alias_fkey" FOREIGN KEY ("alias") REFERENCES "agencies"("alias") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "agency_sign_ins" (
    "state_digest" TEXT NOT NULL,
    "code_verifier" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "alias" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agency_sign_ins_pkey" PRIMARY KEY ("state_digest")
);

CREATE INDEX "agency_sign_ins_created_at_idx" ON "agency_sign_ins"("created_at");
