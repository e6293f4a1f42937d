/**
 * Reads a request body with a hard size limit. We read it ourselves (no body-parser dependency)
 * so that an oversized body is refused while streaming, before it is buffered whole.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from './errors';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    // Drain so the connection can be reused for the next keep-alive request.
    req.resume();
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) {
      req.resume();
      throw tooLarge(limit);
    }
    chunks.push(buffer);
  }
  return chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, `Request body is larger than the limit of ${limit} bytes`);
}

/** Parses JSON, answering 400 with the parser's position message when it is malformed. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') throw new ApiError(400, 'Request body is empty: expected a JSON object');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, `Malformed JSON in request body: ${(error as Error).message}`);
  }
}

/** Reads `application/x-www-form-urlencoded` or JSON (OAuth clients send either). */
export function parseFormOrJson(text: string, contentType: string | undefined): unknown {
  if (contentType && contentType.includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  return parseJson(text);
}
