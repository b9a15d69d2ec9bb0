ALTER TABLE "users" ADD COLUMN "invited_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Accounts invitations made before this column: never activated, and no e-mail key ever sent to them.
UPDATE "users" SET "invited_only" = true WHERE NOT "email_verified" AND NOT EXISTS (SELECT 1 FROM "email_keys" WHERE "email_keys"."user_id" = "users"."id");
