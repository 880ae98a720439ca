CREATE TABLE "kb_indexing_progress" (
	"document_id" text PRIMARY KEY NOT NULL,
	"chunks_written" integer NOT NULL,
	"chunk_total" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
