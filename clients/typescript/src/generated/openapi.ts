/**
 * Generated from Quarry's OpenAPI document (GET /v1/openapi.json) by openapi-typescript.
 * Do not edit: run `npm run generate -w @quarry/client` after changing an endpoint.
 */

export interface paths {
    "/v1/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List files
         * @description Required scope: files:read.
         */
        get: operations["listFiles"];
        put?: never;
        /**
         * Upload a file
         * @description Required scope: files:write.
         */
        post: operations["uploadFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{file_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * File detail
         * @description Required scope: files:read.
         */
        get: operations["getFile"];
        put?: never;
        post?: never;
        /**
         * Delete a file with its extractions and knowledge-base documents
         * @description Required scope: files:write.
         */
        delete: operations["deleteFile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{file_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the file content
         * @description Required scope: files:read.
         */
        get: operations["downloadFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{file_id}/extractions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Extractions of a file
         * @description Required scope: extractions:read.
         */
        get: operations["listFileExtractions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List supported file types
         * @description Required scope: files:read.
         */
        get: operations["listFileTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/extractions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an extraction task
         * @description Required scope: extractions:write.
         */
        post: operations["createExtraction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/extractions/{extraction_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Extraction status and result (a failed task also answers 200)
         * @description Required scope: extractions:read.
         */
        get: operations["getExtraction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/extractions/{extraction_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a pending or running extraction (it ends failed with CANCELLED)
         * @description Required scope: extractions:write.
         */
        post: operations["cancelExtraction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/extractions/{extraction_id}/document": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The document model of a completed extraction: its blocks (headings, paragraphs, lists, tables with spanning cells, …) by page, with where each sits
         * @description Required scope: extractions:read.
         */
        get: operations["getExtractionDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/extractions/{extraction_id}/layout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where the text of a completed extraction sits on its pages (PDFs and images; empty for other formats)
         * @description Required scope: extractions:read.
         */
        get: operations["getExtractionLayout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/extractions/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create extraction tasks for up to 100 files at once, each on its own
         * @description Required scope: extractions:write.
         */
        post: operations["createExtractionsBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List knowledge bases
         * @description Required scope: kb:read.
         */
        get: operations["listKnowledgeBases"];
        put?: never;
        /**
         * Create a knowledge base (its embedding space is fixed now, from the server configuration)
         * @description Required scope: kb:write.
         */
        post: operations["createKnowledgeBase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{kb_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Knowledge base detail
         * @description Required scope: kb:read.
         */
        get: operations["getKnowledgeBase"];
        put?: never;
        post?: never;
        /**
         * Delete a knowledge base with its documents and chunks
         * @description Required scope: kb:write.
         */
        delete: operations["deleteKnowledgeBase"];
        options?: never;
        head?: never;
        /**
         * Update name, description, metadata or chunking strategy (a new strategy re-indexes in the background)
         * @description Required scope: kb:write.
         */
        patch: operations["updateKnowledgeBase"];
        trace?: never;
    };
    "/v1/knowledge-bases/{kb_id}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List documents
         * @description Required scope: kb:read.
         */
        get: operations["listDocuments"];
        put?: never;
        /**
         * Add a file: its latest completed extraction is indexed in the background, else the one still running once it completes (extract starts one)
         * @description Required scope: kb:write.
         */
        post: operations["addDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{kb_id}/documents/{document_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Document detail
         * @description Required scope: kb:read.
         */
        get: operations["getDocument"];
        put?: never;
        post?: never;
        /**
         * Remove a document and its chunks
         * @description Required scope: kb:write.
         */
        delete: operations["deleteDocument"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{kb_id}/documents/{document_id}/reindex": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Index a document again from its file's latest completed extraction (or the one given); its chunks answer searches until replaced
         * @description Required scope: kb:write.
         */
        post: operations["reindexDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{kb_id}/documents/{document_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a failed document through its pipeline again (a new extraction when its extraction failed)
         * @description Required scope: kb:write.
         */
        post: operations["retryDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{kb_id}/documents/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add up to 100 files at once, each as by the single call and on its own: one bad item never blocks the rest
         * @description Required scope: kb:write.
         */
        post: operations["addDocumentsBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{kb_id}/hybrid-search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hybrid search: cosine similarity and BM25, fused
         * @description Required scope: kb:search or kb:read.
         */
        post: operations["hybridSearchKnowledgeBase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{kb_id}/retry-failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry every failed document of the knowledge base (at most 500 per call), each on its own
         * @description Required scope: kb:write.
         */
        post: operations["retryFailedDocuments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/knowledge-bases/{kb_id}/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Semantic search (cosine similarity)
         * @description Required scope: kb:search or kb:read.
         */
        post: operations["searchKnowledgeBase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/citations/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether cited passages are still current, stale or gone (compared with each source’s version without downloading it)
         * @description Required scope: kb:search or kb:read.
         */
        post: operations["verifyCitations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sources, newest first
         * @description Required scope: sources:read.
         */
        get: operations["listSources"];
        put?: never;
        /**
         * Create a source that keeps a knowledge base in step with a bucket, a site or a URL (its first sync starts now)
         * @description Required scope: sources:write.
         */
        post: operations["createSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{source_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Source detail with its newest sync
         * @description Required scope: sources:read.
         */
        get: operations["getSource"];
        put?: never;
        post?: never;
        /**
         * Delete a source and its sync history, with its documents unless keep_documents=true
         * @description Required scope: sources:write.
         */
        delete: operations["deleteSource"];
        options?: never;
        head?: never;
        /**
         * Update a source’s name, config, credentials, schedule, extraction mode, chunking or enabled flag
         * @description Required scope: sources:write.
         */
        patch: operations["updateSource"];
        trace?: never;
    };
    "/v1/sources/{source_id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The history of syncs, newest first, with counts added, updated, unchanged, deleted, failed and skipped
         * @description Required scope: sources:read.
         */
        get: operations["listSourceRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{source_id}/runs/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One sync with each failure and its reason
         * @description Required scope: sources:read.
         */
        get: operations["getSourceRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/{source_id}/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sync now: fetch what changed, add what is new, remove what is gone
         * @description Required scope: sources:write.
         */
        post: operations["syncSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sources/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Try a source’s settings: list the first items it would sync, storing nothing
         * @description Required scope: sources:write.
         */
        post: operations["testSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description Required scope: webhooks:*.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook (enabled; the secret is write-only)
         * @description Required scope: webhooks:*.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Webhook detail
         * @description Required scope: webhooks:*.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook and its delivery history
         * @description Required scope: webhooks:*.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Update events and enabled (and url, secret)
         * @description Required scope: webhooks:*.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Delivery history, newest first
         * @description Required scope: webhooks:*.
         */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A delivery with its payload and every attempt
         * @description Required scope: webhooks:*.
         */
        get: operations["getDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again, as a new delivery with the same body
         * @description Required scope: webhooks:*.
         */
        post: operations["redeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed webhook.test event now (one attempt, recorded in the history)
         * @description Required scope: webhooks:*.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who is calling: the console user or API key, and its scopes
         * @description Required scope: any valid key or console session.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the one-time setup is needed (no authentication) */
        get: operations["getSetupStatus"];
        put?: never;
        /** Create the first administrator while no user exists (no authentication) */
        post: operations["completeSetup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List console users
         * @description Required scope: * (all permissions).
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Create a console user
         * @description Required scope: * (all permissions).
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a user: name, role, password, disabled
         * @description Required scope: * (all permissions).
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Required scope: administrator (* or api-keys:*).
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key (the key is returned once)
         * @description Required scope: administrator (* or api-keys:*).
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Required scope: administrator (* or api-keys:*).
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/maintenance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Maintenance mode state
         * @description Required scope: administrator (* or api-keys:*).
         */
        get: operations["getMaintenance"];
        put?: never;
        /**
         * Turn maintenance mode on or off
         * @description Required scope: administrator (* or api-keys:*).
         */
        post: operations["setMaintenance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness and version (no authentication) */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/detailed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Database and storage probes
         * @description Required scope: any valid key or console session.
         */
        get: operations["getDetailedHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The event log, newest first
         * @description Required scope: webhooks:*.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The OpenAPI 3.1 document of this API (no authentication) */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Model Context Protocol server (Streamable HTTP, stateless): tools and resources for AI agents
         * @description Required scope: any valid key or console session.
         */
        post: operations["mcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        FileUpload: {
            /**
             * Format: binary
             * @description The file; its type is decided by its content
             */
            file: string;
            /** @description A JSON object, as a string */
            metadata?: string;
            /** @description Comma-separated tags */
            tags?: string;
            /** @description Start an extraction too: a mode (simple, normal, advanced) or {"mode", "options"} as JSON. Needs extractions:write */
            extract?: string;
            /** @description Add the file to this knowledge base too, as a document indexed when its extraction completes (mode from extract, else normal). Needs kb:write and extractions:write. A key limited to knowledge bases must send one of its own (without it: 403) */
            knowledge_base_id?: string;
            /** @description With knowledge_base_id: the document title */
            document_title?: string;
            /** @description With knowledge_base_id: the document metadata, a JSON object */
            document_metadata?: string;
            /** @description true: when a file with the same content (SHA-256) is stored, answer 200 with it (deduplicated: true) instead of storing a copy */
            dedupe?: string;
        };
        CreateExtraction: {
            /** @example file_01jd0000000000000000000000 */
            file_id: string;
            /**
             * @description simple: text layer only, no OCR; normal: OCR for pages without text; advanced: OCR every page
             * @default normal
             * @enum {string}
             */
            mode?: "simple" | "normal" | "advanced";
            /** @default {} */
            options?: components["schemas"]["ExtractionOptions"];
        };
        ExtractionOptions: {
            /**
             * @description Document language for OCR: zh (Simplified Chinese, with Traditional when installed), en, ja, ko, ar (Arabic), he (Hebrew), zh-Hans, zh-Hant, or a Tesseract data name (chi_sim, jpn_vert, …). Omitted: English, and a page that reads badly is read again in the script found on it. A language whose data is not installed fails the extraction with OCR_FAILED naming the installed ones
             * @enum {string}
             */
            language?: "zh" | "en" | "ja" | "ko" | "ar" | "he" | "zh-Hans" | "zh-Hant" | "eng" | "chi_sim" | "chi_tra" | "jpn" | "kor" | "ara" | "heb" | "jpn_vert" | "chi_sim_vert" | "chi_tra_vert";
            /**
             * @description default: the best local engine; tesseract; cloud: the HTTP OCR service configured on the server
             * @default default
             * @enum {string}
             */
            ocr_provider?: "default" | "tesseract" | "cloud";
            /** @default true */
            extract_tables?: boolean;
            /** @default false */
            preserve_layout?: boolean;
            /** @description PDF, default true: a table continued on the next page (same columns, ending one page and starting the next) is one table, its repeated header row dropped; each row keeps its own page (row_prov in the document model). false: each page keeps its own part */
            merge_tables?: boolean;
        };
        CreateExtractionsBatch: {
            file_ids: string[];
            /**
             * @default normal
             * @enum {string}
             */
            mode?: "simple" | "normal" | "advanced";
            /** @default {} */
            options?: components["schemas"]["ExtractionOptions"];
        };
        CreateKnowledgeBase: {
            /** @example Contracts */
            name: string;
            description?: string;
            chunking_strategy?: components["schemas"]["ChunkingStrategyInput"];
            /** @description Custom metadata (a JSON object, at most 16 KB) */
            metadata?: {
                [key: string]: unknown;
            };
        };
        ChunkingStrategyInput: {
            /**
             * @description fixed: token windows with overlap; paragraph: Markdown blocks packed to chunk_size; semantic: sentences grouped by embedding similarity. Default paragraph
             * @enum {string}
             */
            type?: "fixed" | "semantic" | "paragraph";
            /** @description Maximum tokens per chunk (cl100k_base), 64–8192. Default 512 */
            chunk_size?: number;
            /** @description Tokens shared by consecutive chunks (fixed strategy); less than chunk_size. Default min(64, chunk_size/8) */
            overlap?: number;
        };
        UpdateKnowledgeBase: {
            name?: string;
            description?: string;
            /** @description A change re-indexes every document in the background; searches keep using the current chunks until the new ones replace them at once */
            chunking_strategy?: components["schemas"]["ChunkingStrategyInput"];
            /** @description Replaces the metadata */
            metadata?: {
                [key: string]: unknown;
            };
        };
        AddDocument: {
            /** @example file_01jd0000000000000000000000 */
            file_id: string;
            /** @description Default: the extraction's title, else the filename */
            title?: string;
            /** @description Copied into every chunk; search filters match it as metadata.<key> */
            metadata?: {
                [key: string]: unknown;
            };
            /** @description A completed extraction of the file to index. Default: the file's latest completed extraction, else the one still running (the document waits for it) */
            extraction_id?: string;
            /** @description For a file never extracted: start an extraction now; the document waits for it and is indexed when it completes */
            extract?: components["schemas"]["ExtractRequest"];
        };
        /** @description Start an extraction: a mode, or {"mode", "options"} as in POST /v1/extractions */
        ExtractRequest: ("simple" | "normal" | "advanced") | {
            /**
             * @default normal
             * @enum {string}
             */
            mode?: "simple" | "normal" | "advanced";
            /** @default {} */
            options?: components["schemas"]["ExtractionOptions"];
        };
        ReindexDocument: {
            /** @description A completed extraction of the document's file. Default: its latest completed extraction */
            extraction_id?: string;
        };
        AddDocumentsBatch: {
            items: {
                /** @example file_01jd0000000000000000000000 */
                file_id: string;
                /** @description Default: the extraction's title, else the filename */
                title?: string;
                /** @description Copied into every chunk; search filters match it as metadata.<key> */
                metadata?: {
                    [key: string]: unknown;
                };
                /** @description A completed extraction of the file to index. Default: the file's latest completed extraction, else the one still running (the document waits for it) */
                extraction_id?: string;
            }[];
            /** @description For files never extracted: start an extraction with this mode and options */
            extract?: components["schemas"]["ExtractRequest"];
        };
        HybridSearchRequest: {
            query: string;
            /** @description How much the semantic side counts. Default 0.7 (0.15 for knowledge bases using the built-in embedder), or 1 − keyword_weight when only that is given */
            vector_weight?: number;
            /** @description How much the keyword (BM25) side counts. Default 0.3 (0.85 with the built-in embedder), or 1 − vector_weight when only that is given */
            keyword_weight?: number;
            /**
             * @description How the two sides' scores become one (default min_max); see the README
             * @enum {string}
             */
            fusion?: "min_max" | "dbsf" | "rrf" | "weighted";
            /** @description With fusion "rrf": the rank constant k in weight / (k + rank); default 60 */
            rrf_k?: number;
            /**
             * @description Number of chunks (1–100, default 5)
             * @default 5
             */
            top_k?: number;
            /** @description Minimum score (0–1) */
            threshold?: number;
            /**
             * @description metadata.<key>: a value (equal, or contained in an array value), an array (any of), or operators $eq $ne $in $nin $gt $gte $lt $lte $exists; document_id: an id or array of ids
             * @example {
             *       "metadata.lang": "en",
             *       "metadata.page": {
             *         "$lte": 10
             *       }
             *     }
             */
            filter?: {
                [key: string]: unknown;
            };
            /** @description Reorder the best top_n first-stage results (default 20, at least top_k) with the configured reranker; adds rerank_score. 400 RERANK_NOT_CONFIGURED when the server has none */
            rerank?: boolean | {
                top_n?: number;
            };
        };
        SearchRequest: {
            query: string;
            /**
             * @description Number of chunks (1–100, default 5)
             * @default 5
             */
            top_k?: number;
            /** @description Minimum score (0–1) */
            threshold?: number;
            /**
             * @description metadata.<key>: a value (equal, or contained in an array value), an array (any of), or operators $eq $ne $in $nin $gt $gte $lt $lte $exists; document_id: an id or array of ids
             * @example {
             *       "metadata.lang": "en",
             *       "metadata.page": {
             *         "$lte": 10
             *       }
             *     }
             */
            filter?: {
                [key: string]: unknown;
            };
            /** @description Reorder the best top_n first-stage results (default 20, at least top_k) with the configured reranker; adds rerank_score. 400 RERANK_NOT_CONFIGURED when the server has none */
            rerank?: boolean | {
                top_n?: number;
            };
        };
        VerifyCitations: {
            citations: {
                /**
                 * @description A chunk id from a search result. Send its document_id too: a chunk replaced by re-indexing is then stale rather than gone
                 * @example chunk_01jd0000000000000000000000
                 */
                chunk_id?: string;
                /** @description The document cited (with file_version, when the chunk id is not kept) */
                document_id?: string;
                /** @description The file version the passage came from (a search result's file_version) */
                file_version?: number;
            }[];
            /** @description Ask each source for its item’s version now (HEAD, HeadObject: no download). Default true */
            check_source?: boolean;
        };
        CreateSource: {
            /**
             * @description s3: a bucket and prefix on any S3-compatible server; web: a site crawled from a start URL or a sitemap; url: one URL re-checked on each sync
             * @enum {string}
             */
            type: "s3" | "web" | "url";
            /** @example kb_01jd0000000000000000000000 */
            knowledge_base_id: string;
            /** @description A name for people; from the config when omitted (the bucket and prefix, the site) */
            name?: string;
            /** @description The type's settings (see the README's Sources section); validated by type */
            config: {
                [key: string]: unknown;
            };
            /** @description s3 only: {access_key_id, secret_access_key, session_token?}, kept encrypted and never returned. Without them the standard AWS variables are used */
            credentials?: {
                [key: string]: unknown;
            };
            schedule?: components["schemas"]["SourceScheduleInput"];
            /**
             * @description How its documents are extracted (as in POST /v1/extractions). Default normal
             * @enum {string}
             */
            extraction_mode?: "simple" | "normal" | "advanced";
            /** @description How this source's documents are chunked instead of the knowledge base's strategy; null: the knowledge base's */
            chunking?: components["schemas"]["ChunkingStrategyInput"] | null;
            /** @description A disabled source keeps its documents and does not sync on its schedule. Default true */
            enabled?: boolean;
            /** @description Start the first sync now. Default true */
            sync?: boolean;
        };
        /** @description When the source syncs by itself; null: only when asked */
        SourceScheduleInput: ({
            /**
             * @description A cron expression (5 fields, or 6 with seconds), parsed by croner
             * @example 0 3 * * *
             */
            cron: string;
            /**
             * @description IANA time zone the expression is read in; UTC when omitted
             * @example Europe/Paris
             */
            timezone?: string;
        } | {
            /**
             * @description Sync this long after the previous sync began (at least 5 minutes)
             * @example 6h
             */
            interval: string;
        }) | null;
        UpdateSource: {
            name?: string;
            /** @description The whole new config (fields left out take their defaults) */
            config?: {
                [key: string]: unknown;
            };
            /** @description New credentials; null removes them */
            credentials?: {
                [key: string]: unknown;
            } | null;
            schedule?: components["schemas"]["SourceScheduleInput"];
            /**
             * @description How its documents are extracted (as in POST /v1/extractions). Default normal
             * @enum {string}
             */
            extraction_mode?: "simple" | "normal" | "advanced";
            chunking?: components["schemas"]["ChunkingStrategyInput"] | null;
            enabled?: boolean;
        };
        TestSource: {
            /**
             * @description s3: a bucket and prefix on any S3-compatible server; web: a site crawled from a start URL or a sitemap; url: one URL re-checked on each sync
             * @enum {string}
             */
            type: "s3" | "web" | "url";
            config: {
                [key: string]: unknown;
            };
            credentials?: {
                [key: string]: unknown;
            };
        };
        CreateWebhook: {
            /**
             * @description Receiving URL: https (http and private addresses only with QUARRY_WEBHOOK_ALLOW_INSECURE=true)
             * @example https://example.com/hooks/quarry
             */
            url: string;
            /**
             * @description Event types to receive; "*" for all
             * @example [
             *       "extraction.completed",
             *       "document.indexed"
             *     ]
             */
            events: ("file.uploaded" | "file.deleted" | "extraction.started" | "extraction.completed" | "extraction.failed" | "document.indexing" | "document.indexed" | "document.index_failed" | "document.deleted" | "knowledge_base.created" | "knowledge_base.deleted" | "source.sync.completed" | "source.sync.failed" | "user.created" | "user.updated" | "user.password_reset" | "*")[];
            /** @description Signs every delivery (HMAC-SHA256). Write-only: never returned */
            secret: string;
        };
        UpdateWebhook: {
            /**
             * @description Event types to receive; "*" for all
             * @example [
             *       "extraction.completed",
             *       "document.indexed"
             *     ]
             */
            events?: ("file.uploaded" | "file.deleted" | "extraction.started" | "extraction.completed" | "extraction.failed" | "document.indexing" | "document.indexed" | "document.index_failed" | "document.deleted" | "knowledge_base.created" | "knowledge_base.deleted" | "source.sync.completed" | "source.sync.failed" | "user.created" | "user.updated" | "user.password_reset" | "*")[];
            enabled?: boolean;
            /**
             * @description Receiving URL: https (http and private addresses only with QUARRY_WEBHOOK_ALLOW_INSECURE=true)
             * @example https://example.com/hooks/quarry
             */
            url?: string;
            /** @description A new signing secret (rotation) */
            secret?: string;
        };
        Setup: {
            /**
             * Format: email
             * @example ana@example.com
             */
            email: string;
            /** @description At least 10 characters; write-only */
            password: string;
            name?: string;
        };
        CreateUser: {
            /**
             * Format: email
             * @example ana@example.com
             */
            email: string;
            /** @description At least 10 characters; write-only */
            password: string;
            /**
             * @default member
             * @enum {string}
             */
            role?: "admin" | "member";
            name?: string;
        };
        UpdateUser: {
            name?: string;
            /** @enum {string} */
            role?: "admin" | "member";
            /** @description At least 10 characters; write-only */
            password?: string;
            disabled?: boolean;
        };
        CreateApiKey: {
            name: string;
            scopes?: ("files:read" | "files:write" | "files:*" | "extractions:read" | "extractions:write" | "extractions:*" | "kb:read" | "kb:write" | "kb:search" | "kb:*" | "sources:read" | "sources:write" | "sources:*" | "api-keys:*" | "webhooks:*" | "*")[];
            expires_in_days?: number;
            allowed_ips?: string[];
            /**
             * @description The knowledge bases the key is limited to (null: all). Such a key sees only these knowledge bases, their documents, and the files and extractions of those documents; it cannot create knowledge bases, upload outside them, or use webhooks, the event log or administration. A deleted knowledge base leaves the list; a key left with none reaches nothing. Each must exist (404 KNOWLEDGE_BASE_NOT_FOUND). With it, scopes may only be files, extractions, kb and sources scopes and default to files:*, extractions:*, kb:*, sources:*.
             * @example [
             *       "kb_01jd0000000000000000000000"
             *     ]
             */
            knowledge_base_ids?: string[] | null;
        };
        MaintenanceRequest: {
            enabled: boolean;
            message?: string;
        };
        /** @description A JSON-RPC 2.0 message of the Model Context Protocol (or a batch of them) */
        JsonRpcMessage: {
            /** @constant */
            jsonrpc: "2.0";
        } & {
            [key: string]: unknown;
        };
        FileList: {
            items: components["schemas"]["FileListItem"][];
            total: number;
            limit: number;
            offset: number;
        };
        FileListItem: {
            /** @example file_01jd0000000000000000000000 */
            id: string;
            filename: string;
            /** @example application/pdf */
            content_type: string;
            /** @description Bytes */
            size: number;
            /**
             * @description SHA-256 of the content, hex
             * @example e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
             */
            sha256: string;
            tags: string[];
            /**
             * @description 1 for an upload; each change a source syncs stores the next version of the same file
             * @example 1
             */
            version: number;
            /** @description The source item the file is kept in step with; null for an upload */
            source_item: {
                /** @example sitem_01jd0000000000000000000000 */
                id: string;
                /** @example src_01jd0000000000000000000000 */
                source_id: string;
                /**
                 * @description The item's key in the source: an object key, a URL
                 * @example handbook/leave.pdf
                 */
                key: string;
                /**
                 * @description Where it can be opened
                 * @example s3://company-docs/handbook/leave.pdf
                 */
                url: string;
            } | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            /** @description The newest extraction of the file (its progress while it runs); null when never extracted */
            latest_extraction: {
                id: string;
                /** @enum {string} */
                status: "pending" | "processing" | "completed" | "failed";
                /** @enum {string} */
                mode: "simple" | "normal" | "advanced";
                progress: number;
            } | null;
        };
        Error: {
            error: {
                /** @example INVALID_REQUEST */
                code: string;
                message: string;
                details?: {
                    [key: string]: unknown;
                };
                /** @example req_01jd0000000000000000000000 */
                request_id: string;
                /** @description Seconds to wait (429 only) */
                retry_after?: number;
            };
        };
        UploadedFile: {
            /** @example file_01jd0000000000000000000000 */
            id: string;
            filename: string;
            /** @example application/pdf */
            content_type: string;
            /** @description Bytes */
            size: number;
            /**
             * @description SHA-256 of the content, hex
             * @example e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
             */
            sha256: string;
            tags: string[];
            /**
             * @description 1 for an upload; each change a source syncs stores the next version of the same file
             * @example 1
             */
            version: number;
            /** @description The source item the file is kept in step with; null for an upload */
            source_item: {
                /** @example sitem_01jd0000000000000000000000 */
                id: string;
                /** @example src_01jd0000000000000000000000 */
                source_id: string;
                /**
                 * @description The item's key in the source: an object key, a URL
                 * @example handbook/leave.pdf
                 */
                key: string;
                /**
                 * @description Where it can be opened
                 * @example s3://company-docs/handbook/leave.pdf
                 */
                url: string;
            } | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            updated_at: string;
            /** @description With dedupe: whether an existing file with the same content was returned (then the status is 200) */
            deduplicated?: boolean;
            /** @description With extract or knowledge_base_id: the extraction started (or, for a deduplicated file, the one it has) */
            extraction?: {
                id: string;
                /** @enum {string} */
                status: "pending" | "processing" | "completed" | "failed";
                /** @enum {string} */
                mode: "simple" | "normal" | "advanced";
            };
            /** @description With knowledge_base_id: the document, pending until its extraction completes and it is indexed */
            document?: {
                id: string;
                kb_id: string;
                /** @enum {string} */
                status: "pending" | "indexing" | "indexed" | "failed";
            };
        };
        File: {
            /** @example file_01jd0000000000000000000000 */
            id: string;
            filename: string;
            /** @example application/pdf */
            content_type: string;
            /** @description Bytes */
            size: number;
            /**
             * @description SHA-256 of the content, hex
             * @example e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
             */
            sha256: string;
            tags: string[];
            /**
             * @description 1 for an upload; each change a source syncs stores the next version of the same file
             * @example 1
             */
            version: number;
            /** @description The source item the file is kept in step with; null for an upload */
            source_item: {
                /** @example sitem_01jd0000000000000000000000 */
                id: string;
                /** @example src_01jd0000000000000000000000 */
                source_id: string;
                /**
                 * @description The item's key in the source: an object key, a URL
                 * @example handbook/leave.pdf
                 */
                key: string;
                /**
                 * @description Where it can be opened
                 * @example s3://company-docs/handbook/leave.pdf
                 */
                url: string;
            } | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            updated_at: string;
        };
        FileExtractionList: {
            items: {
                id: string;
                /** @enum {string} */
                status: "pending" | "processing" | "completed" | "failed";
                /** @enum {string} */
                mode: "simple" | "normal" | "advanced";
                total_pages: number | null;
                /**
                 * Format: date-time
                 * @description ISO 8601 date-time (UTC)
                 * @example 2026-01-01T12:00:00.000Z
                 */
                created_at: string;
            }[];
            total: number;
            limit: number;
            offset: number;
        };
        FileTypes: {
            types: components["schemas"]["FileType"][];
        };
        FileType: {
            /** @example .pdf */
            extension: string;
            /** @example application/pdf */
            mime_type: string;
            description: string;
            /** @example 100 */
            max_size_mb: number;
        };
        CreatedExtraction: {
            id: string;
            file_id: string;
            /** @constant */
            status: "pending";
            /** @enum {string} */
            mode: "simple" | "normal" | "advanced";
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
        };
        Extraction: {
            id: string;
            file_id: string;
            /** @enum {string} */
            status: "pending" | "processing" | "completed" | "failed";
            /** @enum {string} */
            mode: "simple" | "normal" | "advanced";
            /** @description While pending or processing */
            progress?: number;
            /** @description When completed; pages start with <!-- page N --> */
            markdown?: string;
            total_pages?: number;
            /** @description title, author, created_date when found */
            metadata?: {
                [key: string]: unknown;
            };
            /** @description When failed */
            error?: {
                code: string;
                message: string;
            };
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            completed_at?: string | null;
        };
        /** @description A completed extraction's document model: its blocks, in reading order, with where each came from */
        ExtractionDocument: {
            extraction_id: string;
            /**
             * @description The version of the document model
             * @constant
             */
            version: 1;
            /** @description title, author, created_date when found, and other fields some formats give */
            metadata: {
                title?: string;
                author?: string;
                /** @description ISO 8601 */
                created_date?: string;
            } & {
                [key: string]: unknown;
            };
            blocks: components["schemas"]["Block"][];
        };
        /** @description A block of the document, by `type`: heading, paragraph, list, table, picture, code, quote, formula, footnote, rule, preformatted, or a section (page, slide, sheet, chapter, message, attachment, part) holding blocks of its own */
        Block: {
            /** @constant */
            type: "heading";
            /** @enum {number} */
            level: 1 | 2 | 3 | 4 | 5 | 6;
            content: components["schemas"]["Inline"][];
            prov?: components["schemas"]["Provenance"];
        } | {
            /** @constant */
            type: "paragraph";
            content: components["schemas"]["Inline"][];
            prov?: components["schemas"]["Provenance"];
        } | {
            /** @constant */
            type: "list";
            ordered: boolean;
            /** @description Number of the first item of an ordered list (1 when absent) */
            start?: number;
            items: components["schemas"]["ListItem"][];
            prov?: components["schemas"]["Provenance"];
        } | {
            /** @constant */
            type: "table";
            /** @description The cells that start in each row, left to right (as in HTML): a cell spanning rows appears once, in its first row */
            rows: components["schemas"]["TableCell"][][];
            /** @description How many rows at the top are header rows (0 when the source marks none) */
            header_rows: number;
            caption?: components["schemas"]["Inline"][];
            /** @description The source's row count when rows were left out (a table over the cell limit) */
            total_rows?: number;
            /** @description Where each row is, one entry per entry of rows (PDF tables): a table continued over pages (options.merge_tables) is one table whose later rows are on later pages */
            row_prov?: components["schemas"]["RowProvenance"][];
            prov?: components["schemas"]["Provenance"];
        } | {
            /** @constant */
            type: "picture";
            alt?: string;
            caption?: components["schemas"]["Inline"][];
            prov?: components["schemas"]["Provenance"];
        } | {
            /** @constant */
            type: "code";
            text: string;
            language?: string;
            prov?: components["schemas"]["Provenance"];
        } | {
            /** @constant */
            type: "quote";
            content: components["schemas"]["Block"][];
            prov?: components["schemas"]["Provenance"];
        } | {
            /** @constant */
            type: "formula";
            /** @description A display formula, as LaTeX */
            latex: string;
            prov?: components["schemas"]["Provenance"];
        } | {
            /** @constant */
            type: "footnote";
            label: string;
            content: components["schemas"]["Block"][];
            prov?: components["schemas"]["Provenance"];
        } | {
            /**
             * @description A thematic break between parts of the text
             * @constant
             */
            type: "rule";
            prov?: components["schemas"]["Provenance"];
        } | {
            /** @constant */
            type: "preformatted";
            /** @description Text with its line breaks and spacing as the page set it */
            text: string;
            prov?: components["schemas"]["Provenance"];
        } | {
            /** @constant */
            type: "section";
            /** @enum {string} */
            kind: "page" | "slide" | "sheet" | "chapter" | "message" | "attachment" | "part";
            /** @description The page number this section starts in the Markdown (<!-- page N -->), for paged units */
            page?: number;
            /** @description The sheet name, attachment file name, chapter title or part name */
            name?: string;
            /** @description Page width in points (PDF pages and images) */
            width?: number;
            /** @description Page height in points */
            height?: number;
            content: components["schemas"]["Block"][];
            /** @description A page's furniture: its running headers and footers and page numbers, top to bottom, each with its page and region. Not in `content`, the Markdown or the chunks. */
            furniture?: {
                /** @constant */
                type: "paragraph";
                content: components["schemas"]["Inline"][];
                prov?: components["schemas"]["Provenance"];
            }[];
            prov?: components["schemas"]["Provenance"];
        };
        /** @description A run of text with its marks, a line break, an inline formula or a footnote reference */
        Inline: {
            /** @constant */
            type: "text";
            text: string;
            /** @description Bold */
            bold?: boolean;
            /** @description Italic */
            italic?: boolean;
            /** @description Struck through */
            strike?: boolean;
            /** @description Inline code */
            code?: boolean;
            /** @description Superscript */
            superscript?: boolean;
            /** @description Subscript */
            subscript?: boolean;
            /** @description Link target (http, https or mailto) */
            href?: string;
        } | {
            /**
             * @description A hard line break inside a paragraph
             * @constant
             */
            type: "break";
        } | {
            /** @constant */
            type: "math";
            /** @description An inline formula, as LaTeX */
            latex: string;
        } | {
            /** @constant */
            type: "footnote_ref";
            /** @description The label of the footnote block it refers to */
            label: string;
        };
        /** @description Where a block came from, where the format knows it */
        Provenance: {
            /** @description 1-based page (or slide, sheet) number */
            page?: number;
            /** @description The block's region on its page: the union of its lines */
            bbox?: components["schemas"]["Box"];
            /** @description Where the block is in the extraction's `markdown`: UTF-16 offsets of its first character and just after its last (as chunks' char_start and char_end). Given for blocks at the top level or in a section and for the items of such lists; a section runs from its page marker to its last block. */
            span?: [
                number,
                number
            ];
        };
        /** @description x0, y0, x1, y1: fractions of the page (0–1), origin at the top-left corner of the page as shown */
        Box: [
            number,
            number,
            number,
            number
        ];
        ListItem: {
            /** @description The item's paragraphs and nested lists */
            content: components["schemas"]["Block"][];
            /** @description The item's number in an ordered list, when it is not the one the list's order gives */
            number?: number;
            /** @description A label the source printed instead of a bullet ("a)", "(iv)") */
            label?: string;
            /** @description Task-list items: ticked or not */
            checked?: boolean;
            prov?: components["schemas"]["Provenance"];
        };
        TableCell: {
            content: components["schemas"]["Inline"][];
            /** @description Rows the cell covers, from its own downwards (1 when absent) */
            row_span?: number;
            /** @description Columns the cell covers, from its own rightwards (1 when absent) */
            col_span?: number;
        };
        RowProvenance: {
            /** @description The row's page */
            page: number;
            /** @description The row's region on its page, when the reader knows it */
            bbox?: components["schemas"]["Box"];
        };
        ExtractionLayout: {
            extraction_id: string;
            /** @description Pages with positioned text, in order; empty for formats without positions (Office, text, HTML, e-mail) */
            pages: {
                page: number;
                blocks: {
                    /** @description Start offset (UTF-16 code units) in the extraction's markdown */
                    char_start: number;
                    /** @description End offset (exclusive) */
                    char_end: number;
                    /** @description Left edge, as a fraction of the page width (0–1) */
                    x0: number;
                    /** @description Top edge, as a fraction of the page height (0–1, from the top) */
                    y0: number;
                    /** @description Right edge */
                    x1: number;
                    /** @description Bottom edge */
                    y1: number;
                    lines: {
                        /** @description Start offset (UTF-16 code units) in the extraction's markdown */
                        char_start: number;
                        /** @description End offset (exclusive) */
                        char_end: number;
                        /** @description Left edge, as a fraction of the page width (0–1) */
                        x0: number;
                        /** @description Top edge, as a fraction of the page height (0–1, from the top) */
                        y0: number;
                        /** @description Right edge */
                        x1: number;
                        /** @description Bottom edge */
                        y1: number;
                    }[];
                }[];
            }[];
        };
        CreateExtractionsBatchResult: {
            created: number;
            failed: number;
            results: {
                index: number;
                file_id: string;
                extraction?: components["schemas"]["CreatedExtraction"];
                /** @description Why this item failed; the others are not affected */
                error?: {
                    code: string;
                    message: string;
                    details?: {
                        [key: string]: unknown;
                    };
                };
            }[];
        };
        KnowledgeBaseList: {
            items: components["schemas"]["KnowledgeBaseListItem"][];
            total: number;
            limit: number;
            offset: number;
        };
        KnowledgeBaseListItem: {
            id: string;
            name: string;
            description: string;
            document_count: number;
            chunk_count: number;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
        };
        KnowledgeBase: {
            /** @example kb_01jd0000000000000000000000 */
            id: string;
            name: string;
            description: string;
            chunking_strategy: components["schemas"]["ChunkingStrategy"];
            metadata: {
                [key: string]: unknown;
            };
            /** @description The vector space, fixed at creation */
            embedding: {
                /** @enum {string} */
                provider: "builtin" | "openai" | "transformers";
                model: string;
                dimensions: number;
            };
            /** @enum {string} */
            index_status: "ready" | "reindexing";
            /** @description While re-indexing: the strategy of the chunks searches still read, and documents re-chunked so far */
            reindex?: {
                serving_chunking_strategy: components["schemas"]["ChunkingStrategy"];
                documents_done: number;
            };
            document_count: number;
            chunk_count: number;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            updated_at: string;
        };
        ChunkingStrategy: {
            /** @enum {string} */
            type: "fixed" | "semantic" | "paragraph";
            chunk_size: number;
            overlap: number;
        };
        DocumentList: {
            items: components["schemas"]["DocumentListItem"][];
            total: number;
            limit: number;
            offset: number;
        };
        DocumentListItem: {
            id: string;
            file_id: string;
            title: string;
            /** @enum {string} */
            status: "pending" | "indexing" | "indexed" | "failed";
            /** @constant */
            waiting_for?: "extraction";
            extraction_progress?: number;
            /** @description While an indexing document's chunks are written (PostgreSQL): how many so far, of how many */
            indexing_progress?: {
                chunks_written: number;
                chunk_total: number;
            };
            chunk_count: number;
            /** @description The version of the file its chunks were made from (null until first indexed) */
            file_version: number | null;
            /** @description The file's version now: ahead of file_version while a newer version (synced from its source) is extracted and indexed */
            latest_file_version: number;
            /** @description The source item it is kept in step with (key, and a URL to open it); null for uploads */
            source_item: {
                id: string;
                source_id: string;
                key: string;
                url: string;
            } | null;
            /** @description When failed: why, as in the document detail */
            error?: {
                code: string;
                message: string;
            };
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
        };
        CreatedDocument: {
            id: string;
            kb_id: string;
            file_id: string;
            /** @description The extraction it is indexed from (or waits for) */
            extraction_id: string;
            title: string;
            /** @constant */
            status: "pending";
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
        };
        Document: {
            /** @example doc_01jd0000000000000000000000 */
            id: string;
            kb_id: string;
            file_id: string;
            /** @description The extraction whose Markdown was indexed */
            extraction_id: string;
            title: string;
            /** @enum {string} */
            status: "pending" | "indexing" | "indexed" | "failed";
            /**
             * @description A pending document whose extraction is still running: it is indexed when that completes
             * @constant
             */
            waiting_for?: "extraction";
            /** @description With waiting_for: the extraction's progress in percent */
            extraction_progress?: number;
            /** @description While an indexing document's chunks are written (PostgreSQL): how many so far, of how many */
            indexing_progress?: {
                chunks_written: number;
                chunk_total: number;
            };
            chunk_count: number;
            metadata: {
                [key: string]: unknown;
            };
            /** @description The version of the file its chunks were made from (null until first indexed) */
            file_version: number | null;
            /** @description The file's version now: ahead of file_version while a newer version (synced from its source) is extracted and indexed */
            latest_file_version: number;
            /** @description The source item it is kept in step with (key, and a URL to open it); null for uploads */
            source_item: {
                id: string;
                source_id: string;
                key: string;
                url: string;
            } | null;
            /** @description When failed: INDEXING_FAILED, EMBEDDING_FAILED…, or EXTRACTION_FAILED with the extraction's error */
            error?: {
                code: string;
                message: string;
            };
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            updated_at: string;
            indexed_at: string | null;
        };
        AddDocumentsBatchResult: {
            created: number;
            failed: number;
            results: {
                index: number;
                file_id: string;
                document?: components["schemas"]["CreatedDocument"];
                /** @description Why this item failed; the others are not affected */
                error?: {
                    code: string;
                    message: string;
                    details?: {
                        [key: string]: unknown;
                    };
                };
            }[];
        };
        HybridSearchResult: {
            query: string;
            chunks: components["schemas"]["HybridChunk"][];
            total: number;
        };
        HybridChunk: {
            /** @example chunk_01jd0000000000000000000000 */
            id: string;
            document_id: string;
            document_title: string;
            /** @description The document's file */
            file_id: string;
            /** @description The extraction the chunk was indexed from (open it at metadata.page) */
            extraction_id: string;
            /** @description The version of the file the chunk was made from (a source stores each change as the next version); POST /v1/citations/verify tells whether it is still current */
            file_version: number | null;
            /** @description For a document kept in step with a source: the item it came from (its key, and a URL to open it); null for uploads */
            source_item: {
                id: string;
                source_id: string;
                key: string;
                url: string;
            } | null;
            content: string;
            score: number;
            /** @description The document's metadata plus chunk_index, page, page_end, section, char_start, char_end and (PDFs, images) boxes */
            metadata: {
                [key: string]: unknown;
            };
            /** @description With rerank: the reranker's relevance score (0–1 for Cohere, Jina, TEI and local cross-encoders); results are ordered by it */
            rerank_score?: number;
            /** @description Cosine similarity, clamped to 0–1 */
            vector_score: number;
            /** @description BM25 relative to the query's best BM25 score */
            keyword_score: number;
        };
        RetryFailedResult: {
            /** @description Documents sent through their pipeline again */
            retried: number;
            results: {
                document_id: string;
                /** @enum {string} */
                status: "pending" | "indexing" | "indexed" | "failed";
                /** @description Why this one could not be retried */
                error?: {
                    code: string;
                    message: string;
                };
            }[];
        };
        SearchResult: {
            query: string;
            chunks: components["schemas"]["Chunk"][];
            total: number;
        };
        Chunk: {
            /** @example chunk_01jd0000000000000000000000 */
            id: string;
            document_id: string;
            document_title: string;
            /** @description The document's file */
            file_id: string;
            /** @description The extraction the chunk was indexed from (open it at metadata.page) */
            extraction_id: string;
            /** @description The version of the file the chunk was made from (a source stores each change as the next version); POST /v1/citations/verify tells whether it is still current */
            file_version: number | null;
            /** @description For a document kept in step with a source: the item it came from (its key, and a URL to open it); null for uploads */
            source_item: {
                id: string;
                source_id: string;
                key: string;
                url: string;
            } | null;
            content: string;
            score: number;
            /** @description The document's metadata plus chunk_index, page, page_end, section, char_start, char_end and (PDFs, images) boxes */
            metadata: {
                [key: string]: unknown;
            };
            /** @description With rerank: the reranker's relevance score (0–1 for Cohere, Jina, TEI and local cross-encoders); results are ordered by it */
            rerank_score?: number;
        };
        CitationVerdicts: {
            results: components["schemas"]["CitationVerdict"][];
        };
        CitationVerdict: {
            chunk_id: string | null;
            document_id: string | null;
            /**
             * @description current: the knowledge base serves the version cited and, where the source tells without a download, it is the version there; stale: a newer version is stored, being indexed or waiting at the source; gone: the document or the item no longer exists
             * @enum {string}
             */
            status: "current" | "stale" | "gone";
            reason: string;
            cited_file_version: number | null;
            current_file_version: number | null;
            /** @description The source was asked for the item’s version now */
            source_checked: boolean;
            source_item: {
                id: string;
                source_id: string;
                key: string;
                url: string;
            } | null;
        };
        SourceList: {
            items: components["schemas"]["Source"][];
            total: number;
            limit: number;
            offset: number;
        };
        Source: {
            /** @example src_01jd0000000000000000000000 */
            id: string;
            /**
             * @description s3: a bucket and prefix on any S3-compatible server; web: a site crawled from a start URL or a sitemap; url: one URL re-checked on each sync
             * @enum {string}
             */
            type: "s3" | "web" | "url";
            knowledge_base_id: string;
            name: string;
            /** @description The settings with their defaults filled in (never credentials) */
            config: {
                [key: string]: unknown;
            };
            /** @description Credentials are stored (they are never returned) */
            has_credentials: boolean;
            schedule: ({
                cron: string;
                timezone: string;
            } | {
                interval: string;
                interval_seconds: number;
            }) | null;
            /**
             * @description The schedule in plain words
             * @example At 03:00 AM (UTC)
             */
            schedule_description: string | null;
            next_sync_at: string | null;
            /** @enum {string} */
            extraction_mode: "simple" | "normal" | "advanced";
            chunking: components["schemas"]["ChunkingStrategy"] | null;
            enabled: boolean;
            /** @description Items the source holds as of its last sync */
            item_count: number;
            /** @description The newest sync (running or ended) */
            last_run: components["schemas"]["SourceRun"] | null;
            /** @description When a sync last completed */
            last_synced_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            updated_at: string;
        };
        SourceRun: {
            /** @example srun_01jd0000000000000000000000 */
            id: string;
            source_id: string;
            /**
             * @description queued, running (listing and fetching), indexing (waiting for its documents), completed or failed
             * @enum {string}
             */
            status: "queued" | "running" | "indexing" | "completed" | "failed";
            /** @enum {string} */
            trigger: "created" | "manual" | "schedule" | "retry";
            counts: components["schemas"]["SourceSyncCounts"];
            /** @description Items found so far */
            items_total: number;
            /** @description Items done so far */
            items_done: number;
            /** @description The source had more items than one sync takes (max_pages): nothing was removed */
            limit_reached: boolean;
            error: {
                code: string;
                message: string;
            } | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            started_at: string | null;
            completed_at: string | null;
        };
        /** @description Items by what the sync did with them */
        SourceSyncCounts: {
            added: number;
            updated: number;
            unchanged: number;
            deleted: number;
            failed: number;
            skipped: number;
        };
        SourceRunList: {
            items: components["schemas"]["SourceRun"][];
            total: number;
            limit: number;
            offset: number;
        };
        SourceRunDetail: {
            /** @example srun_01jd0000000000000000000000 */
            id: string;
            source_id: string;
            /**
             * @description queued, running (listing and fetching), indexing (waiting for its documents), completed or failed
             * @enum {string}
             */
            status: "queued" | "running" | "indexing" | "completed" | "failed";
            /** @enum {string} */
            trigger: "created" | "manual" | "schedule" | "retry";
            counts: components["schemas"]["SourceSyncCounts"];
            /** @description Items found so far */
            items_total: number;
            /** @description Items done so far */
            items_done: number;
            /** @description The source had more items than one sync takes (max_pages): nothing was removed */
            limit_reached: boolean;
            error: {
                code: string;
                message: string;
            } | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            started_at: string | null;
            completed_at: string | null;
            /** @description The items that failed, with why (at most 200) */
            failures: {
                key: string;
                url: string;
                reason: string;
            }[];
        };
        SourceTest: {
            ok: boolean;
            /** @description The first items found (at most 10) */
            items: {
                key: string;
                url: string;
                size: number | null;
            }[];
            /** @description More items than those shown were found */
            more: boolean;
            /** @description Why the source could not be listed */
            error: {
                code: string;
                message: string;
            } | null;
        };
        WebhookList: {
            items: components["schemas"]["WebhookListItem"][];
            total: number;
            limit: number;
            offset: number;
        };
        WebhookListItem: {
            id: string;
            url: string;
            events: string[];
            enabled: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            /**
             * @description How many of the latest attempted deliveries failed in a row, newest first (up to 10; a delivery waiting for a retry counts as failed): 0 when the latest succeeded or none was attempted
             * @example 0
             */
            recent_failures: number;
        };
        CreatedWebhook: {
            id: string;
            url: string;
            events: string[];
            /** @constant */
            enabled: true;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
        };
        Webhook: {
            /** @example wh_01jd0000000000000000000000 */
            id: string;
            url: string;
            events: string[];
            enabled: boolean;
            /** @description Time of the latest delivery attempt */
            last_delivery_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            updated_at: string;
        };
        WebhookDeliveryList: {
            items: components["schemas"]["WebhookDeliveryListItem"][];
            total: number;
            limit: number;
            offset: number;
        };
        WebhookDeliveryListItem: {
            /** @example del_01jd0000000000000000000000 */
            id: string;
            webhook_id: string;
            event_id: string;
            event_type: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed" | "cancelled";
            attempt_count: number;
            last_response_status: number | null;
            last_error: string | null;
            next_attempt_at: string | null;
            /** @description For a redelivery: the delivery it re-sends */
            redelivery_of: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            completed_at: string | null;
        };
        WebhookDelivery: {
            /** @example del_01jd0000000000000000000000 */
            id: string;
            webhook_id: string;
            event_id: string;
            event_type: string;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed" | "cancelled";
            attempt_count: number;
            last_response_status: number | null;
            last_error: string | null;
            next_attempt_at: string | null;
            /** @description For a redelivery: the delivery it re-sends */
            redelivery_of: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            completed_at: string | null;
            /** @description The body sent (the event envelope) */
            payload: unknown;
            attempts: {
                number: number;
                /**
                 * Format: date-time
                 * @description ISO 8601 date-time (UTC)
                 * @example 2026-01-01T12:00:00.000Z
                 */
                attempted_at: string;
                duration_ms: number;
                response_status: number | null;
                /** @description At most 1 KB of the response body */
                response_excerpt: string | null;
                error: string | null;
            }[];
        };
        Me: {
            /** @enum {string} */
            kind: "user" | "api_key";
            id: string;
            name: string;
            role: ("admin" | "member") | null;
            scopes: string[];
            /** @description The knowledge bases an API key is limited to; null when it is not limited (and for console users) */
            knowledge_base_ids: string[] | null;
        };
        SetupStatus: {
            setup_required: boolean;
        };
        User: {
            id: string;
            email: string;
            name: string;
            /** @enum {string} */
            role: "admin" | "member";
            disabled: boolean;
            last_sign_in_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            updated_at: string;
        };
        UserList: {
            items: components["schemas"]["User"][];
            total: number;
            limit: number;
            offset: number;
        };
        ApiKeyList: {
            items: components["schemas"]["ApiKey"][];
            total: number;
            limit: number;
            offset: number;
        };
        ApiKey: {
            id: string;
            name: string;
            /** @example sk_test_Ab12 */
            key_prefix: string;
            scopes: string[];
            allowed_ips: string[] | null;
            /**
             * @description The knowledge bases the key is limited to (null: all). Such a key sees only these knowledge bases, their documents, and the files and extractions of those documents; it cannot create knowledge bases, upload outside them, or use webhooks, the event log or administration. A deleted knowledge base leaves the list; a key left with none reaches nothing.
             * @example null
             */
            knowledge_base_ids: string[] | null;
            last_used_at: string | null;
            expires_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
        };
        CreatedApiKey: {
            id: string;
            name: string;
            /**
             * @description The full key; shown only in this response
             * @example sk_test_…
             */
            key: string;
            key_prefix: string;
            scopes: string[];
            allowed_ips: string[] | null;
            /**
             * @description The knowledge bases the key is limited to (null: all). Such a key sees only these knowledge bases, their documents, and the files and extractions of those documents; it cannot create knowledge bases, upload outside them, or use webhooks, the event log or administration. A deleted knowledge base leaves the list; a key left with none reaches nothing.
             * @example null
             */
            knowledge_base_ids: string[] | null;
            expires_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
        };
        Maintenance: {
            enabled: boolean;
            message: string | null;
            updated_at: string | null;
        };
        Health: {
            /** @constant */
            status: "healthy";
            /** @example 1.0.0 */
            version: string;
        };
        DetailedHealth: {
            /** @enum {string} */
            status: "healthy" | "unhealthy";
            version: string;
            maintenance: {
                enabled: boolean;
                message: string | null;
            };
            components: {
                database: {
                    /** @enum {string} */
                    status: "healthy" | "unhealthy";
                    latency_ms?: number;
                    error?: string;
                    kind: string;
                };
                storage: {
                    /** @enum {string} */
                    status: "healthy" | "unhealthy";
                    latency_ms?: number;
                    error?: string;
                    kind: string;
                };
                /** @description Background workflows (extraction, indexing, webhook delivery); informational */
                pipeline: {
                    /** @enum {string} */
                    status: "healthy" | "unhealthy";
                    latency_ms?: number;
                    error?: string;
                    /** @enum {string} */
                    kind: "embedded" | "inngest";
                    /** @description Runs due and waiting for a free slot */
                    queued?: number;
                    running?: number;
                    /** @description How long the oldest due run has waited */
                    oldest_wait_s?: number;
                };
            };
        };
        EventList: {
            items: components["schemas"]["Event"][];
            total: number;
            limit: number;
            offset: number;
        };
        Event: {
            /** @example evt_01jd0000000000000000000000 */
            id: string;
            type: string;
            /**
             * Format: date-time
             * @description ISO 8601 date-time (UTC)
             * @example 2026-01-01T12:00:00.000Z
             */
            created_at: string;
            data: {
                [key: string]: unknown;
            };
        };
        OpenApiDocument: {
            [key: string]: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listFiles: {
        parameters: {
            query?: {
                /** @description Page size (1–100) */
                limit?: number;
                /** @description Number of items to skip */
                offset?: number;
                /** @description Sort field: created_at, filename, size */
                sort_by?: "created_at" | "filename" | "size";
                /** @description Sort direction */
                order?: "asc" | "desc";
                /** @description Comma-separated tags; files having all of them */
                tags?: string;
                /** @description MIME type filter */
                content_type?: string;
                /** @description Files whose name contains this text (any case) */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of files */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileList"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    uploadFile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe creation: the same key within 24 h returns the first result */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "multipart/form-data": components["schemas"]["FileUpload"];
            };
        };
        responses: {
            /** @description With dedupe=true: a file with the same content was already stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadedFile"];
                };
            };
            /** @description Stored */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadedFile"];
                };
            };
            /** @description INVALID_REQUEST, INVALID_FILE */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE, DOCUMENT_EXISTS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FILE_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_FORMAT */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["File"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FILE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FILE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    downloadFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The original bytes, with the stored content type. A `Range: bytes=…` header (one range) answers 206 with that part and Content-Range; If-Range takes the ETag */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FILE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RANGE_NOT_SATISFIABLE */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listFileExtractions: {
        parameters: {
            query?: {
                /** @description Page size (1–100) */
                limit?: number;
                /** @description Number of items to skip */
                offset?: number;
            };
            header?: never;
            path: {
                file_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of extraction tasks */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileExtractionList"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FILE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listFileTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Supported types and their size limits */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileTypes"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createExtraction: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe creation: the same key within 24 h returns the first result */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateExtraction"];
            };
        };
        responses: {
            /** @description Queued */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedExtraction"];
                };
            };
            /** @description INVALID_REQUEST, INVALID_FILE_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FILE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_FORMAT */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getExtraction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                extraction_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task; fields depend on its status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Extraction"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EXTRACTION_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelExtraction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                extraction_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task after the request */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Extraction"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EXTRACTION_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EXTRACTION_NOT_CANCELLABLE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getExtractionDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                extraction_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document model */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExtractionDocument"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EXTRACTION_NOT_FOUND, DOCUMENT_NOT_AVAILABLE */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EXTRACTION_NOT_COMPLETED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getExtractionLayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                extraction_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Blocks and lines with their markdown offsets and page regions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExtractionLayout"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EXTRACTION_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EXTRACTION_NOT_COMPLETED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createExtractionsBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe creation: the same key within 24 h returns the first result */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateExtractionsBatch"];
            };
        };
        responses: {
            /** @description The outcome of each file, in order: extraction or error */
            207: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateExtractionsBatchResult"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listKnowledgeBases: {
        parameters: {
            query?: {
                /** @description Page size (1–100) */
                limit?: number;
                /** @description Number of items to skip */
                offset?: number;
                /** @description Sort field: created_at, name */
                sort_by?: "created_at" | "name";
                /** @description Sort direction */
                order?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of knowledge bases */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBaseList"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createKnowledgeBase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe creation: the same key within 24 h returns the first result */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateKnowledgeBase"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBase"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EMBEDDING_FAILED */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE, EMBEDDING_NOT_CONFIGURED */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The knowledge base */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBase"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateKnowledgeBase"];
            };
        };
        responses: {
            /** @description The updated knowledge base */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeBase"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDocuments: {
        parameters: {
            query?: {
                /** @description Page size (1–100) */
                limit?: number;
                /** @description Number of items to skip */
                offset?: number;
                /** @description Sort field: created_at, title, status, chunk_count */
                sort_by?: "created_at" | "title" | "status" | "chunk_count";
                /** @description Sort direction */
                order?: "asc" | "desc";
                /** @description Only documents in this status */
                status?: "pending" | "indexing" | "indexed" | "failed";
                /** @description Only the document of this file */
                file_id?: string;
            };
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of documents */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentList"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe creation: the same key within 24 h returns the first result */
                "idempotency-key"?: string;
            };
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AddDocument"];
            };
        };
        responses: {
            /** @description Added, pending indexing */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedDocument"];
                };
            };
            /** @description INVALID_REQUEST, INVALID_FILE_ID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND, FILE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE, EXTRACTION_NOT_COMPLETED, DOCUMENT_EXISTS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_FORMAT */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Document"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND, DOCUMENT_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND, DOCUMENT_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reindexDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ReindexDocument"];
            };
        };
        responses: {
            /** @description The document, pending again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Document"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND, DOCUMENT_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DOCUMENT_BUSY, EXTRACTION_NOT_COMPLETED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document, pending again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Document"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND, DOCUMENT_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DOCUMENT_NOT_FAILED, EXTRACTION_NOT_COMPLETED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_FORMAT */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addDocumentsBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe creation: the same key within 24 h returns the first result */
                "idempotency-key"?: string;
            };
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AddDocumentsBatch"];
            };
        };
        responses: {
            /** @description The outcome of each item, in order: document or error */
            207: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AddDocumentsBatchResult"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    hybridSearchKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["HybridSearchRequest"];
            };
        };
        responses: {
            /** @description Chunks, best first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HybridSearchResult"];
                };
            };
            /** @description INVALID_REQUEST, RERANK_NOT_CONFIGURED */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EMBEDDING_PROVIDER_MISMATCH */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EMBEDDING_FAILED, RERANK_FAILED */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryFailedDocuments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What happened to each failed document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetryFailedResult"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchKnowledgeBase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kb_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["SearchRequest"];
            };
        };
        responses: {
            /** @description Chunks, best first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResult"];
                };
            };
            /** @description INVALID_REQUEST, RERANK_NOT_CONFIGURED */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EMBEDDING_PROVIDER_MISMATCH */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EMBEDDING_FAILED, RERANK_FAILED */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyCitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["VerifyCitations"];
            };
        };
        responses: {
            /** @description A verdict per citation, in order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CitationVerdicts"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSources: {
        parameters: {
            query?: {
                /** @description Page size (1–100) */
                limit?: number;
                /** @description Number of items to skip */
                offset?: number;
                /** @description Only the sources of this knowledge base */
                knowledge_base_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of sources */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceList"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSource: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe creation: the same key within 24 h returns the first result */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateSource"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                source_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The source */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SOURCE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSource: {
        parameters: {
            query?: {
                /** @description true: keep the documents (as plain files no longer synced); by default they are deleted with the source */
                keep_documents?: "true" | "false";
            };
            header?: never;
            path: {
                source_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SOURCE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                source_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateSource"];
            };
        };
        responses: {
            /** @description The updated source */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Source"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SOURCE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSourceRuns: {
        parameters: {
            query?: {
                /** @description Page size (1–100) */
                limit?: number;
                /** @description Number of items to skip */
                offset?: number;
            };
            header?: never;
            path: {
                source_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of syncs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceRunList"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SOURCE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSourceRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                source_id: string;
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sync */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceRunDetail"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SOURCE_NOT_FOUND, SOURCE_RUN_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    syncSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                source_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sync, queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceRun"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SOURCE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SOURCE_BUSY */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testSource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["TestSource"];
            };
        };
        responses: {
            /** @description What was found, or why the source could not be read */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceTest"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Page size (1–100) */
                limit?: number;
                /** @description Number of items to skip */
                offset?: number;
                /** @description Sort field: created_at */
                sort_by?: "created_at";
                /** @description Sort direction */
                order?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of webhooks */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe creation: the same key within 24 h returns the first result */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateWebhook"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhook"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WEBHOOK_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WEBHOOK_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateWebhook"];
            };
        };
        responses: {
            /** @description The updated webhook */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WEBHOOK_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                /** @description Page size (1–100) */
                limit?: number;
                /** @description Number of items to skip */
                offset?: number;
                /** @description Only deliveries in this status */
                status?: "pending" | "succeeded" | "failed" | "cancelled";
                /** @description Only deliveries of this event type */
                event_type?: string;
            };
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WEBHOOK_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WEBHOOK_NOT_FOUND, DELIVERY_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliver: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe creation: the same key within 24 h returns the first result */
                "idempotency-key"?: string;
            };
            path: {
                webhook_id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new delivery, pending */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WEBHOOK_NOT_FOUND, DELIVERY_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE, WEBHOOK_DISABLED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery with its attempt */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WEBHOOK_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSetupStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Setup state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SetupStatus"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    completeSetup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Setup"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SETUP_COMPLETED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /** @description Page size (1–100) */
                limit?: number;
                /** @description Number of items to skip */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe creation: the same key within 24 h returns the first result */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateUser"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE, USER_EXISTS */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateUser"];
            };
        };
        responses: {
            /** @description The user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description USER_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description LAST_ADMIN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Page size (1–100) */
                limit?: number;
                /** @description Number of items to skip */
                offset?: number;
                /** @description Sort field: created_at, name, last_used_at, expires_at */
                sort_by?: "created_at" | "name" | "last_used_at" | "expires_at";
                /** @description Sort direction */
                order?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat-safe creation: the same key within 24 h returns the first result */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateApiKey"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description KNOWLEDGE_BASE_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_IN_USE */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API_KEY_NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMaintenance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Current state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Maintenance"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setMaintenance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["MaintenanceRequest"];
            };
        };
        responses: {
            /** @description The new state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Maintenance"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getDetailedHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description All components healthy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DetailedHealth"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A component is unhealthy */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DetailedHealth"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Page size (1–100) */
                limit?: number;
                /** @description Number of items to skip */
                offset?: number;
                type?: "file.uploaded" | "file.deleted" | "extraction.started" | "extraction.completed" | "extraction.failed" | "document.indexing" | "document.indexed" | "document.index_failed" | "document.deleted" | "knowledge_base.created" | "knowledge_base.deleted" | "source.sync.completed" | "source.sync.failed" | "user.created" | "user.updated" | "user.password_reset";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED, INSUFFICIENT_SCOPE */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["JsonRpcMessage"];
            };
        };
        responses: {
            /** @description The JSON-RPC answer (application/json). Tools and resources follow the key's scopes; see the README's "MCP server" section */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description INVALID_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IP_NOT_ALLOWED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMIT_EXCEEDED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
