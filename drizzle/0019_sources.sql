CREATE TABLE "source_items" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"key" text NOT NULL,
	"url" text NOT NULL,
	"file_id" text,
	"fingerprint" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"links" text[] DEFAULT '{}' NOT NULL,
	"state" text DEFAULT 'present' NOT NULL,
	"last_run_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "source_run_items" (
	"run_id" text NOT NULL,
	"key" text NOT NULL,
	"url" text NOT NULL,
	"seq" bigserial NOT NULL,
	"depth" integer DEFAULT 0 NOT NULL,
	"listed" jsonb,
	"outcome" text,
	"reason" text,
	"file_id" text,
	"document_id" text,
	"file_version" integer,
	"done_at" timestamp with time zone,
	CONSTRAINT "source_run_items_run_id_key_pk" PRIMARY KEY("run_id","key")
);
--> statement-breakpoint
CREATE TABLE "source_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"status" text NOT NULL,
	"trigger" text NOT NULL,
	"listed_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"limit_reached" boolean DEFAULT false NOT NULL,
	"added" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"deleted" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"error_message" text,
	"created_by_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" text PRIMARY KEY NOT NULL,
	"kb_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"config" jsonb NOT NULL,
	"credentials_ciphertext" text,
	"schedule" jsonb,
	"extraction_mode" text DEFAULT 'normal' NOT NULL,
	"chunking" jsonb,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_sync_at" timestamp with time zone,
	"last_run_id" text,
	"last_synced_at" timestamp with time zone,
	"created_by_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "source" jsonb;--> statement-breakpoint
ALTER TABLE "extractions" ADD COLUMN "file_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "kb_documents" ADD COLUMN "indexed_extraction_id" text;--> statement-breakpoint
ALTER TABLE "kb_documents" ADD COLUMN "indexed_file_version" integer;--> statement-breakpoint
ALTER TABLE "source_items" ADD CONSTRAINT "source_items_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "source_items" ADD CONSTRAINT "source_items_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "source_run_items" ADD CONSTRAINT "source_run_items_run_id_source_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."source_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "source_runs" ADD CONSTRAINT "source_runs_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sources" ADD CONSTRAINT "sources_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "source_items_source_key_idx" ON "source_items" USING btree ("source_id","key");--> statement-breakpoint
CREATE INDEX "source_items_file_id_idx" ON "source_items" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "source_run_items_todo_idx" ON "source_run_items" USING btree ("run_id","depth","seq") WHERE "source_run_items"."outcome" is null;--> statement-breakpoint
CREATE INDEX "source_run_items_document_idx" ON "source_run_items" USING btree ("document_id") WHERE "source_run_items"."document_id" is not null;--> statement-breakpoint
CREATE INDEX "source_runs_source_created_at_idx" ON "source_runs" USING btree ("source_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "source_runs_one_active_idx" ON "source_runs" USING btree ("source_id") WHERE "source_runs"."status" in ('queued', 'running', 'indexing');--> statement-breakpoint
CREATE INDEX "sources_kb_created_at_idx" ON "sources" USING btree ("kb_id","created_at");--> statement-breakpoint
CREATE INDEX "sources_created_at_idx" ON "sources" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sources_next_sync_at_idx" ON "sources" USING btree ("next_sync_at") WHERE "sources"."next_sync_at" is not null;--> statement-breakpoint
-- Documents indexed before versions were recorded were indexed from their current extraction of version 1.
UPDATE "kb_documents" SET "indexed_extraction_id" = "extraction_id", "indexed_file_version" = 1 WHERE "indexed_at" IS NOT NULL;
