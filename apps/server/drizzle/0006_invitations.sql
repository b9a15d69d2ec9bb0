ALTER TABLE "chat_members" ADD COLUMN "joined_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "room_participants" ADD COLUMN "joined_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
UPDATE "chat_members" SET "joined_at" = "created_at";--> statement-breakpoint
UPDATE "room_participants" SET "joined_at" = "created_at";
