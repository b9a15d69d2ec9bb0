CREATE TABLE "glossary_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"chat_id" integer,
	"room_id" integer,
	"term" text NOT NULL,
	"language" text NOT NULL,
	"keep" boolean DEFAULT false NOT NULL,
	"renderings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "glossary_entries_one_scope" CHECK (("glossary_entries"."chat_id" is null) <> ("glossary_entries"."room_id" is null))
);
--> statement-breakpoint
ALTER TABLE "message_renderings" ADD COLUMN "machine_content" text;--> statement-breakpoint
ALTER TABLE "message_renderings" ADD COLUMN "corrected_by" integer;--> statement-breakpoint
ALTER TABLE "message_renderings" ADD COLUMN "corrected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "message_renderings" ADD COLUMN "missed_terms" text[];--> statement-breakpoint
ALTER TABLE "segment_renderings" ADD COLUMN "machine_transcript" text;--> statement-breakpoint
ALTER TABLE "segment_renderings" ADD COLUMN "corrected_by" integer;--> statement-breakpoint
ALTER TABLE "segment_renderings" ADD COLUMN "corrected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "segment_renderings" ADD COLUMN "missed_terms" text[];--> statement-breakpoint
ALTER TABLE "glossary_entries" ADD CONSTRAINT "glossary_entries_chat_id_chats_id_fk" FOREIGN KEY ("chat_id") REFERENCES "public"."chats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "glossary_entries" ADD CONSTRAINT "glossary_entries_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "glossary_entries_chat_idx" ON "glossary_entries" USING btree ("chat_id");--> statement-breakpoint
CREATE INDEX "glossary_entries_room_idx" ON "glossary_entries" USING btree ("room_id");--> statement-breakpoint
CREATE UNIQUE INDEX "glossary_entries_term_key" ON "glossary_entries" USING btree (coalesce("chat_id", 0),coalesce("room_id", 0),lower("term"),"language");--> statement-breakpoint
ALTER TABLE "message_renderings" ADD CONSTRAINT "message_renderings_corrected_by_chat_members_id_fk" FOREIGN KEY ("corrected_by") REFERENCES "public"."chat_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_renderings" ADD CONSTRAINT "segment_renderings_corrected_by_room_participants_id_fk" FOREIGN KEY ("corrected_by") REFERENCES "public"."room_participants"("id") ON DELETE set null ON UPDATE no action;