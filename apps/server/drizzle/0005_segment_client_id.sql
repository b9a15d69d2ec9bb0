ALTER TABLE "segments" ADD COLUMN "client_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "segments_client_key" ON "segments" USING btree ("speaker_id","client_id");