ALTER TABLE "chat_messages" ADD COLUMN "pinned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "pinned_by" integer;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_pinned_by_chat_members_id_fk" FOREIGN KEY ("pinned_by") REFERENCES "public"."chat_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_messages_pinned_idx" ON "chat_messages" USING btree ("chat_id","pinned_at") WHERE "chat_messages"."pinned_at" is not null;