ALTER TABLE "email_keys" ADD COLUMN "password_hash" text;--> statement-breakpoint
ALTER TABLE "email_keys" ADD COLUMN "full_name" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "previous_jti" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "rotated_at" timestamp with time zone;