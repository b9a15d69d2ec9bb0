CREATE TABLE "segment_renderings" (
	"segment_id" integer NOT NULL,
	"language" text NOT NULL,
	"tone" text NOT NULL,
	"version" integer NOT NULL,
	"state" text NOT NULL,
	"transcript" text,
	"previous_transcript" text,
	"rendered_tone" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "segment_renderings_segment_id_language_tone_pk" PRIMARY KEY("segment_id","language","tone")
);
--> statement-breakpoint
CREATE TABLE "segment_tones" (
	"segment_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"tone" text NOT NULL,
	CONSTRAINT "segment_tones_segment_id_participant_id_pk" PRIMARY KEY("segment_id","participant_id")
);
--> statement-breakpoint
CREATE TABLE "segment_voices" (
	"segment_id" integer NOT NULL,
	"language" text NOT NULL,
	"tone" text NOT NULL,
	"male" boolean NOT NULL,
	"version" integer NOT NULL,
	"state" text NOT NULL,
	"audio_key" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "segment_voices_segment_id_language_tone_male_pk" PRIMARY KEY("segment_id","language","tone","male")
);
--> statement-breakpoint
CREATE TABLE "segments" (
	"id" serial PRIMARY KEY NOT NULL,
	"room_id" integer NOT NULL,
	"speaker_id" integer NOT NULL,
	"language" text NOT NULL,
	"audio_key" text NOT NULL,
	"duration_seconds" real NOT NULL,
	"transcription" text NOT NULL,
	"transcript" text DEFAULT '' NOT NULL,
	"previous_transcript" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "segment_renderings" ADD CONSTRAINT "segment_renderings_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_tones" ADD CONSTRAINT "segment_tones_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_tones" ADD CONSTRAINT "segment_tones_participant_id_room_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."room_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segment_voices" ADD CONSTRAINT "segment_voices_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segments" ADD CONSTRAINT "segments_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segments" ADD CONSTRAINT "segments_speaker_id_room_participants_id_fk" FOREIGN KEY ("speaker_id") REFERENCES "public"."room_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "segments_room_idx" ON "segments" USING btree ("room_id","id");