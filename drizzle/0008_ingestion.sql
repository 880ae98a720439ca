ALTER TABLE "kb_documents" ADD COLUMN "awaiting_extraction" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "files_sha256_idx" ON "files" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "kb_documents_extraction_id_idx" ON "kb_documents" USING btree ("extraction_id");