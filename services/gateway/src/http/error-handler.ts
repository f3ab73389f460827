import { STORAGE_FULL_CODE, STORAGE_FULL_RETRY_AFTER_SECONDS } from '@qrshirt/contracts';
import { AuditUnavailableError, ConcurrencyError, DomainError, IngestionUnavailableError } from '@qrshirt/core';
import { isStorageFull } from '@qrshirt/runtime';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { FieldErrors } from './field-errors';
import { HttpError } from './http-error';

const domainStatus = { validation: 400, not_found: 404, conflict: 409, forbidden: 403, gone: 410 } as const;

/** Errors thrown by express.json(): they carry a `type` and the status to answer. */
interface BodyParserError {
  type: string;
  status: number;
  /** The most bytes the parser took (entity.too.large). */
  limit?: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return (
    typeof error === 'object' &&
    error !== null &&
    'type' in error &&
    'status' in error &&
    typeof error.status === 'number'
  );
}

interface Answer {
  status: number;
  error: string;
  code?: string;
  fields?: Record<string, string>;
  headers?: Readonly<Record<string, string>>;
}

function toAnswer(error: unknown): Answer | undefined {
  if (error instanceof FieldErrors) return { status: error.status, error: error.message, fields: error.fields };
  if (error instanceof HttpError) {
    return {
      status: error.status,
      error: error.message,
      ...(error.code && { code: error.code }),
      headers: error.headers,
    };
  }
  if (error instanceof DomainError) return { status: domainStatus[error.kind], error: error.message };
  if (error instanceof ConcurrencyError)
    return { status: 409, error: 'Someone else changed this at the same time, please retry' };
  if (error instanceof IngestionUnavailableError || error instanceof AuditUnavailableError)
    return { status: 503, error: error.message };
  if (isStorageFull(error)) {
    return {
      status: 503,
      error: "The server's storage is full, so this could not be saved. Please try again later.",
      code: STORAGE_FULL_CODE,
      headers: { 'Retry-After': String(STORAGE_FULL_RETRY_AFTER_SECONDS) },
    };
  }
  if (isBodyParserError(error)) {
    if (error.type === 'entity.parse.failed') return { status: 400, error: 'The request body is not valid JSON' };
    if (error.type === 'entity.too.large') {
      const most = error.limit === undefined ? '' : `: at most ${error.limit} bytes here`;
      return { status: 413, error: `The request body is too large${most}` };
    }
    if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
      return { status: 415, error: 'The request body encoding is not supported' };
    }
    if (error.status >= 400 && error.status < 500)
      return { status: error.status, error: 'The request body could not be read' };
  }
  return undefined;
}

export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const answer = toAnswer(error);
  // The operator is told to retry; whoever runs the store needs to know why it refused.
  if (error instanceof AuditUnavailableError)
    req.log.error({ err: error.cause }, 'the admin audit trail refused a record');
  // Answered like a dependency that is down, but only whoever runs the machine can free space.
  if (isStorageFull(error)) req.log.error({ err: error }, 'a write failed: DATA_DIR is full');
  if (answer) {
    if (answer.status === 503) res.setHeader('Retry-After', '1');
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    res.status(answer.status).json({
      error: answer.error,
      ...(answer.code && { code: answer.code }),
      ...(answer.fields && { fields: answer.fields }),
    });
    return;
  }
  req.log.error({ err: error }, 'unhandled error');
  res.status(500).json({ error: 'Something went wrong on our side. Please try again.' });
};

export const unknownApiRoute: RequestHandler = (req, res) => {
  res.status(404).json({ error: `No such endpoint: ${req.method} ${req.baseUrl}${req.path}` });
};
