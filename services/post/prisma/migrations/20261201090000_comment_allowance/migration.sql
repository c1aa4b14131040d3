-- CreateTable
-- One row per member who has commented: the instant by which their recent comments are paid off at the steady
-- rate. A comment is allowed while that instant is at most a burst's worth ahead of now (a generic cell rate).
CREATE TABLE "comment_allowance" (
    "user_id" TEXT NOT NULL,
    "paid_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "comment_allowance_pkey" PRIMARY KEY ("user_id")
);
