-- Every change to who may register and to members' roles, made on the admin screen or by `npm run admin`:
-- who made it (an account, or none for the command line), when, and what.
CREATE TABLE "admin_log" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_user_id" TEXT,
    "actor_email" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "admin_log_pkey" PRIMARY KEY ("id")
);
