CREATE TABLE "kb_chunks" (
	"id" text PRIMARY KEY NOT NULL,
	"kb_id" text NOT NULL,
	"document_id" text NOT NULL,
	"generation" integer NOT NULL,
	"chunk_index" integer NOT NULL,
	"content" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"token_count" integer NOT NULL,
	"term_count" integer NOT NULL,
	"terms" "tsvector" NOT NULL,
	"dimensions" integer NOT NULL,
	"embedding" vector NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"kb_id" text NOT NULL,
	"file_id" text NOT NULL,
	"extraction_id" text NOT NULL,
	"title" text NOT NULL,
	"status" text NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"pending_chunk_count" integer,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error_code" text,
	"error_message" text,
	"created_by_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"indexed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "kb_index_stats" (
	"kb_id" text NOT NULL,
	"generation" integer NOT NULL,
	"chunk_total" bigint DEFAULT 0 NOT NULL,
	"term_total" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "kb_index_stats_kb_id_generation_pk" PRIMARY KEY("kb_id","generation")
);
--> statement-breakpoint
CREATE TABLE "kb_term_stats" (
	"kb_id" text NOT NULL,
	"generation" integer NOT NULL,
	"term" text NOT NULL,
	"df" integer NOT NULL,
	CONSTRAINT "kb_term_stats_kb_id_generation_term_pk" PRIMARY KEY("kb_id","generation","term")
);
--> statement-breakpoint
CREATE TABLE "knowledge_bases" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"chunking_strategy" jsonb NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"embedding_provider" text NOT NULL,
	"embedding_model" text NOT NULL,
	"embedding_dimensions" integer NOT NULL,
	"generation" integer DEFAULT 1 NOT NULL,
	"pending_generation" integer,
	"pending_chunking_strategy" jsonb,
	"created_by_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kb_chunks" ADD CONSTRAINT "kb_chunks_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_chunks" ADD CONSTRAINT "kb_chunks_document_id_kb_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."kb_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_documents" ADD CONSTRAINT "kb_documents_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_documents" ADD CONSTRAINT "kb_documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_documents" ADD CONSTRAINT "kb_documents_extraction_id_extractions_id_fk" FOREIGN KEY ("extraction_id") REFERENCES "public"."extractions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_index_stats" ADD CONSTRAINT "kb_index_stats_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_term_stats" ADD CONSTRAINT "kb_term_stats_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kb_chunks_kb_generation_idx" ON "kb_chunks" USING btree ("kb_id","generation");--> statement-breakpoint
CREATE INDEX "kb_chunks_document_idx" ON "kb_chunks" USING btree ("document_id","generation");--> statement-breakpoint
CREATE INDEX "kb_chunks_terms_idx" ON "kb_chunks" USING gin ("terms");--> statement-breakpoint
CREATE UNIQUE INDEX "kb_documents_kb_file_idx" ON "kb_documents" USING btree ("kb_id","file_id");--> statement-breakpoint
CREATE INDEX "kb_documents_kb_created_at_idx" ON "kb_documents" USING btree ("kb_id","created_at");--> statement-breakpoint
CREATE INDEX "kb_documents_file_id_idx" ON "kb_documents" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "knowledge_bases_created_at_idx" ON "knowledge_bases" USING btree ("created_at");