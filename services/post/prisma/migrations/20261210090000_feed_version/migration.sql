-- CreateSequence
-- The feed version: taken (nextval) after every committed write that changes what a feed or comments page shows,
-- so the gateways' page caches know when to drop their pages. Shared by every replica; only equality matters.
CREATE SEQUENCE "feed_version";
