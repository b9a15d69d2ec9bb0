CREATE TABLE "message_versions" (
	"message_id" integer NOT NULL,
	"version" integer NOT NULL,
	"language" text NOT NULL,
	"content" text NOT NULL,
	"written_at" timestamp with time zone NOT NULL,
	CONSTRAINT "message_versions_message_id_version_pk" PRIMARY KEY("message_id","version")
);
--> statement-breakpoint
ALTER TABLE "message_versions" ADD CONSTRAINT "message_versions_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;