ALTER TABLE "kb_chunks" ADD COLUMN "term_freqs" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
UPDATE "kb_chunks" SET "term_freqs" = coalesce((SELECT jsonb_object_agg(u.lexeme, coalesce(array_length(u.positions, 1), 1)) FROM unnest("terms") u), '{}'::jsonb);
