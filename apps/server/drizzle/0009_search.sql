-- Full-text search across languages (core/db/search.ts): each text indexed with its own language's
-- text-search configuration, `simple` where PostgreSQL has none.
CREATE OR REPLACE FUNCTION parla_ts_config(lang text) RETURNS regconfig
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (CASE lang WHEN 'ar' THEN 'arabic' WHEN 'ca' THEN 'catalan' WHEN 'da' THEN 'danish' WHEN 'de' THEN 'german' WHEN 'el' THEN 'greek' WHEN 'en' THEN 'english' WHEN 'es' THEN 'spanish' WHEN 'fi' THEN 'finnish' WHEN 'fr' THEN 'french' WHEN 'hi' THEN 'hindi' WHEN 'hu' THEN 'hungarian' WHEN 'hy' THEN 'armenian' WHEN 'id' THEN 'indonesian' WHEN 'it' THEN 'italian' WHEN 'lt' THEN 'lithuanian' WHEN 'ne' THEN 'nepali' WHEN 'nl' THEN 'dutch' WHEN 'no' THEN 'norwegian' WHEN 'pt' THEN 'portuguese' WHEN 'ro' THEN 'romanian' WHEN 'ru' THEN 'russian' WHEN 'sr' THEN 'serbian' WHEN 'sv' THEN 'swedish' WHEN 'ta' THEN 'tamil' WHEN 'tr' THEN 'turkish' ELSE 'simple' END)::regconfig $$;--> statement-breakpoint
CREATE INDEX "chat_messages_search_idx" ON "chat_messages" USING gin (to_tsvector(parla_ts_config("language"), "content"));--> statement-breakpoint
CREATE INDEX "message_renderings_search_idx" ON "message_renderings" USING gin (to_tsvector(parla_ts_config("language"), "content"));
