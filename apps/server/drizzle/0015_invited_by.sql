ALTER TABLE "chat_members" ADD COLUMN "invited_by" text;--> statement-breakpoint
ALTER TABLE "room_participants" ADD COLUMN "invited_by" text;