import { z } from 'zod';
import { displayEndpoint, isTransient, postWithRetries, serverMessage, type FailureMapper } from '@/lib/http/post';
import type { HttpRerankConfig } from './config';
import { RerankError } from './errors';

/*
 * Reranking over HTTP. Cohere, Jina, Voyage, vLLM and LiteLLM take {model, query, documents,
 * top_n} and answer {results: [{index, relevance_score}]}; Text Embeddings Inference takes
 * {query, texts} and answers [{index, score}]. Either answer is accepted whatever was sent.
 */

const RETRY = { retryBaseMs: 300, maxRetryDelayMs: 5_000 };

const cohereAnswer = z.object({ results: z.array(z.object({ index: z.number().int().nonnegative(), relevance_score: z.number() })) });
const teiAnswer = z.array(z.object({ index: z.number().int().nonnegative(), score: z.number() }));

/** Where to POST: the URL as given when its path already ends in /rerank, else with /rerank appended. */
export function rerankEndpoint(base: string): string {
  const url = new URL(base);
  const pathname = url.pathname.replace(/\/+$/, '');
  url.pathname = pathname.endsWith('/rerank') ? pathname : `${pathname}/rerank`;
  return url.toString();
}

function failure(endpoint: string, timeoutMs: number): FailureMapper {
  const where = displayEndpoint(endpoint);
  return (f, attempts) => {
    const gaveUp = attempts ? ` (gave up after ${attempts} attempt${attempts === 1 ? '' : 's'})` : '';
    if (f.kind === 'timeout') return new RerankError('RERANK_FAILED', `The reranker at ${where} did not answer within ${timeoutMs / 1000} s${gaveUp}`, { cause: f.cause });
    if (f.kind === 'network') return new RerankError('RERANK_FAILED', `Could not reach the reranker at ${where}: ${f.detail}${gaveUp}`, { cause: f.cause });
    if (!isTransient(f) && (f.status === 401 || f.status === 403 || f.status === 404)) {
      return new RerankError('RERANK_NOT_CONFIGURED', `The reranker at ${where} answered ${f.status}: ${f.message}. Check QUARRY_RERANK_URL, QUARRY_RERANK_MODEL and QUARRY_RERANK_API_KEY.`);
    }
    return new RerankError('RERANK_FAILED', `The reranker at ${where} answered ${f.status}: ${f.message}${gaveUp}`);
  };
}

/** One score per document, in input order: higher is more relevant. */
export async function rerankOverHttp(config: HttpRerankConfig, query: string, documents: string[]): Promise<number[]> {
  const endpoint = rerankEndpoint(config.url);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  const body =
    config.format === 'tei'
      ? { query, texts: documents, truncate: true }
      : { ...(config.model ? { model: config.model } : {}), query, documents, top_n: documents.length, return_documents: false };
  const text = await postWithRetries(endpoint, headers, JSON.stringify(body), { timeoutMs: config.timeoutMs, maxRetries: config.maxRetries, ...RETRY }, failure(endpoint, config.timeoutMs));
  return parseScores(text, documents.length, displayEndpoint(endpoint));
}

function parseScores(text: string, count: number, where: string): number[] {
  const malformed = (why: string) =>
    new RerankError('RERANK_FAILED', `The reranker at ${where} returned a malformed answer (${why}); expected {"results":[{"index","relevance_score"}]} or [{"index","score"}]`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw malformed(`not JSON: ${serverMessage(text)}`);
  }
  const cohere = cohereAnswer.safeParse(json);
  const tei = cohere.success ? undefined : teiAnswer.safeParse(json);
  const items = cohere.success ? cohere.data.results.map((r) => ({ index: r.index, score: r.relevance_score })) : tei?.success ? tei.data : null;
  if (!items) throw malformed('unknown shape');
  const scores = new Array<number | undefined>(count);
  for (const { index, score } of items) {
    if (index >= count || scores[index] !== undefined) throw malformed(`index ${index} is out of range or repeated`);
    scores[index] = score;
  }
  if (scores.some((s) => s === undefined)) throw malformed(`${items.length} scores for ${count} documents`);
  return scores as number[];
}
