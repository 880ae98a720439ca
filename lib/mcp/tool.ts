import { z } from 'zod';
import type { Scope } from '@/lib/auth/scopes';
import type { ServiceContext } from '@/lib/context';

/** One MCP tool: what tools/list shows, who may call it, and what it does with the caller's context. */
export interface Tool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** Any one of these scopes allows the tool. */
  scopes: readonly Scope[];
  /** Reads only (a hint for clients that ask before side effects). */
  readOnly: boolean;
  input: S;
  run(ctx: ServiceContext, args: z.output<S>): Promise<unknown>;
}

/** Declares a tool with its arguments typed from its input schema. */
export function tool<S extends z.ZodObject>(def: Tool<S>): Tool<S> {
  return def;
}

/** A required id argument, with the message a model reads when it is missing. */
export const id = (what: string, example: string) => z.string({ error: `${what} is required and must be a string` }).min(1).max(200).meta({ example });

/** limit/offset arguments of a list tool, and the offset of the next page (null at the end). */
export const pageInput = {
  limit: z.number().int().min(1).max(100).default(20).meta({ description: 'How many to return (1–100, default 20)' }),
  offset: z.number().int().min(0).default(0).meta({ description: 'How many to skip (for the next page)' }),
};

export function nextOffset(offset: number, shown: number, total: number): number | null {
  return offset + shown < total ? offset + shown : null;
}
