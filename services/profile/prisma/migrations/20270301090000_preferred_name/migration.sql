-- The name a person goes by ("Liz" for Elizabeth), shown in place of the first name; null when not given.
ALTER TABLE "profiles" ADD COLUMN "preferred_name" TEXT;
