DROP TABLE "kb_term_stats" CASCADE;--> statement-breakpoint
DROP INDEX "kb_chunks_terms_idx";