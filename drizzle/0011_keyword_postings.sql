CREATE TABLE "kb_postings" (
	"kb_id" text NOT NULL,
	"generation" integer NOT NULL,
	"term" text NOT NULL,
	"block" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "kb_postings_kb_id_generation_term_block_pk" PRIMARY KEY("kb_id","generation","term","block")
);
--> statement-breakpoint
DROP INDEX "kb_chunks_kb_generation_idx";--> statement-breakpoint
ALTER TABLE "kb_chunks" ADD COLUMN "ordinal" integer;--> statement-breakpoint
UPDATE "kb_chunks" AS c SET "ordinal" = n.ordinal
  FROM (SELECT id, (row_number() OVER (PARTITION BY kb_id, generation ORDER BY document_id, chunk_index) - 1)::int AS ordinal FROM "kb_chunks") AS n
  WHERE n.id = c.id;--> statement-breakpoint
ALTER TABLE "kb_chunks" ALTER COLUMN "ordinal" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "kb_index_stats" ADD COLUMN "next_ordinal" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "kb_index_stats" AS s SET "next_ordinal" = coalesce((SELECT max(c.ordinal) + 1 FROM "kb_chunks" c WHERE c.kb_id = s.kb_id AND c.generation = s.generation), 0);--> statement-breakpoint
ALTER TABLE "kb_postings" ADD CONSTRAINT "kb_postings_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
WITH p AS (
  SELECT c.kb_id, c.generation, f.key AS term, c.ordinal, least(f.value::int, 65535) AS tf, least(c.term_count, 65535) AS len,
         (row_number() OVER (PARTITION BY c.kb_id, c.generation, f.key, c.ordinal / 65536 ORDER BY c.ordinal) - 1) / 64 AS grp
  FROM "kb_chunks" c, jsonb_each_text(c.term_freqs) AS f
), g AS (
  SELECT p.*, min(p.ordinal) OVER (PARTITION BY p.kb_id, p.generation, p.term, p.ordinal / 65536, p.grp) AS block FROM p
)
INSERT INTO "kb_postings" ("kb_id", "generation", "term", "block", "data")
  SELECT g.kb_id, g.generation, g.term, g.block,
         string_agg(substring(int4send(g.ordinal - g.block) FROM 3 FOR 2) || substring(int4send(g.tf) FROM 3 FOR 2)
                    || substring(int4send(g.len) FROM 3 FOR 2), ''::bytea ORDER BY g.ordinal)
  FROM g GROUP BY g.kb_id, g.generation, g.term, g.block;--> statement-breakpoint
CREATE UNIQUE INDEX "kb_chunks_kb_generation_ordinal_idx" ON "kb_chunks" USING btree ("kb_id","generation","ordinal");
