-- Vectors stay in the row (other large columns move out first): an exact scan then reads no TOAST.
-- Rows written before keep their layout until rewritten (re-indexing does it).
ALTER TABLE "kb_chunks" ALTER COLUMN "embedding" SET STORAGE MAIN;