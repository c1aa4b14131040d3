-- AlterTable
-- The issue areas each author's profile covers (their ids), copied from the profile service's announcements
-- (ADR 0012): the search index files each post under its author's, for the feed's "My issue areas". Empty until
-- the catch-up on the next connection of the change listener copies them.
ALTER TABLE "authors" ADD COLUMN "issue_area_ids" INTEGER[] NOT NULL DEFAULT ARRAY[]::INTEGER[];
