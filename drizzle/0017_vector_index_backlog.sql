ALTER TABLE "kb_chunks" ADD COLUMN "vector_indexed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "kb_chunks_vector_pending_idx" ON "kb_chunks" USING btree ("kb_id","generation") WHERE not "kb_chunks"."vector_indexed";--> statement-breakpoint
-- Each dimension's HNSW index now holds only rows marked vector_indexed: chunks are written
-- unmarked and put into the index in the background. Existing indexes are built again once
-- with that predicate (every existing row is marked).
DO $$
DECLARE
  r record;
  d integer;
BEGIN
  FOR r IN SELECT indexname FROM pg_indexes WHERE tablename = 'kb_chunks' AND indexname ~ '^kb_chunks_embedding_[0-9]+_hnsw_idx$' LOOP
    d := substring(r.indexname FROM '^kb_chunks_embedding_([0-9]+)_hnsw_idx$')::integer;
    EXECUTE format('DROP INDEX %I', r.indexname);
    EXECUTE format(
      'CREATE INDEX %I ON kb_chunks USING hnsw ((embedding::%s(%s)) %s) WHERE dimensions = %s AND vector_indexed',
      r.indexname,
      CASE WHEN d > 2000 THEN 'halfvec' ELSE 'vector' END,
      d,
      CASE WHEN d > 2000 THEN 'halfvec_cosine_ops' ELSE 'vector_cosine_ops' END,
      d
    );
  END LOOP;
END $$;
