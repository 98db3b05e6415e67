import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import busboy from 'busboy';
import type { NextFunction, Request, Response } from 'express';
import { parse as parseQueryString } from 'node:querystring';
import { ApiException, InvalidParameterException } from './api-exception';
import type { EnvelopeStyle } from './envelope';

export const FORM_BODY_OPTIONS = Symbol('FORM_BODY_OPTIONS');
export interface FormBodyOptions {
  /** Largest accepted body in bytes, counted on the wire whatever the content type. */
  limitBytes: number;
  style: EnvelopeStyle;
}

/** Most fields of one body (urlencoded, multipart or JSON); more is 413. */
export const MAX_BODY_FIELDS = 200;
/** Longest field name of a multipart part. */
const MAX_FIELD_NAME = 200;

type Fields = Record<string, string | string[]>;

/** The client's fault, answered with the service's code for it. */
class BodyRefused extends Error {
  constructor(readonly answer: ApiException | InvalidParameterException) {
    super(answer.message);
  }
}

/**
 * Parses request bodies: `application/x-www-form-urlencoded`, `multipart/form-data` (fields
 * only; a file is refused) and `application/json` (an object of string values), into
 * `req.body`. Bytes are counted as they arrive, with or without `Content-Length`
 * (`Transfer-Encoding: chunked`): past `limitBytes` the request is answered 413 at once and
 * its connection closed, so no more of it is read; a declared length over the limit is
 * refused before any byte is read. More than `MAX_BODY_FIELDS` fields is 413 too. Another
 * content type, or a compressed body, is 415 without reading it. Runs inside Nest so that
 * every refusal reaches the exception filter; malformed bodies are 400 (invalid parameter).
 */
@Injectable()
export class FormBodyMiddleware implements NestMiddleware {
  constructor(@Inject(FORM_BODY_OPTIONS) private readonly options: FormBodyOptions) {}

  use(req: Request, res: Response, next: NextFunction): void {
    // A read takes its fields from the query (docs/contract.md §2): its body, if any, is not read.
    if (READ_METHODS.has(req.method) || !hasBody(req)) {
      next();
      return;
    }
    const { limitBytes, style } = this.options;
    const refuse = (answer: ApiException | InvalidParameterException): void => {
      // The rest of the body is not read: the connection closes once the answer is written.
      req.pause();
      res.setHeader('Connection', 'close');
      next(answer);
    };
    if (Number(req.headers['content-length'] ?? 0) > limitBytes) {
      refuse(new ApiException(style.bodyTooLarge));
      return;
    }
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    const type = mediaType(req.headers['content-type']);
    const parse = encoding === 'identity' ? PARSERS[type] : undefined;
    if (!parse) {
      refuse(new ApiException(style.unsupportedMediaType));
      return;
    }
    readBounded(req, limitBytes).then(
      (raw) => {
        if (raw === undefined) {
          refuse(new ApiException(style.bodyTooLarge));
          return;
        }
        parse(raw, req.headers).then(
          (fields) => {
            if (fields === undefined) {
              refuse(new ApiException(style.bodyTooLarge));
              return;
            }
            req.body = fields;
            next();
          },
          (err: unknown) => next(err instanceof BodyRefused ? err.answer : new InvalidParameterException('body', 'malformed')),
        );
      },
      // The client went away mid-body: nobody reads the answer.
      () => next(new InvalidParameterException('body', 'malformed')),
    );
  }
}

/**
 * Methods whose fields are in the query: no body parser runs for them, so that a read does
 * only a read's work (docs/performance.md). Node discards an unread body once the answer is sent.
 */
export const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A request carries a body when it declares a non-zero length or a transfer coding. */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** `multipart/form-data; boundary=x` → `multipart/form-data`. */
function mediaType(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * Reads the body into one buffer, counting bytes as they arrive: `undefined` as soon as more
 * than `limit` have come (the stream is paused, not drained). Rejects when the client aborts.
 */
function readBounded(req: Request, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limit) {
        cleanup();
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, received));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const onClose = (): void => {
      cleanup();
      reject(new Error('request closed before its body ended'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Parses a whole body; `undefined`: more than `MAX_BODY_FIELDS` fields. */
type BodyParser = (raw: Buffer, headers: Request['headers']) => Promise<Fields | undefined>;

const PARSERS: Record<string, BodyParser> = {
  'application/x-www-form-urlencoded': async (raw) => parseUrlencoded(raw),
  'multipart/form-data': parseMultipart,
  'application/json': async (raw) => parseJson(raw),
};

function parseUrlencoded(raw: Buffer): Fields | undefined {
  if (raw.length === 0) return Object.create(null) as Fields;
  let count = 1;
  for (let i = raw.indexOf(0x26); i !== -1; i = raw.indexOf(0x26, i + 1)) if (++count > MAX_BODY_FIELDS) return undefined;
  // A name given twice becomes an array, which the handlers refuse.
  return Object.assign(Object.create(null) as Fields, parseQueryString(raw.toString('utf8'), '&', '=', { maxKeys: 0 }));
}

function parseJson(raw: Buffer): Fields | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BodyRefused(new InvalidParameterException('body', 'malformed'));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BodyRefused(new InvalidParameterException('body', 'malformed'));
  const names = Object.keys(value);
  if (names.length > MAX_BODY_FIELDS) return undefined;
  const fields = Object.create(null) as Fields;
  for (const name of names) {
    const v = (value as Record<string, unknown>)[name];
    if (typeof v !== 'string') throw new BodyRefused(new InvalidParameterException(name));
    fields[name] = v;
  }
  return fields;
}

function parseMultipart(raw: Buffer, headers: Request['headers']): Promise<Fields | undefined> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers,
        // A value cannot be longer than the (bounded) body, so none is cut short.
        limits: { fields: MAX_BODY_FIELDS, parts: MAX_BODY_FIELDS, files: 0, fieldNameSize: MAX_FIELD_NAME, fieldSize: raw.length + 1 },
      });
    } catch {
      // No boundary, or not multipart after all.
      reject(new BodyRefused(new InvalidParameterException('body', 'malformed')));
      return;
    }
    const fields = Object.create(null) as Fields;
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      fn();
    };
    parser.on('field', (name, value, info) => {
      if (info.nameTruncated) settle(() => reject(new BodyRefused(new InvalidParameterException('body', 'malformed'))));
      const seen = fields[name];
      fields[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    });
    parser.on('file', (_name, stream) => {
      stream.resume();
      settle(() => reject(new BodyRefused(new InvalidParameterException('body', 'file in'))));
    });
    parser.on('filesLimit', () => settle(() => reject(new BodyRefused(new InvalidParameterException('body', 'file in')))));
    parser.on('fieldsLimit', () => settle(() => resolve(undefined)));
    parser.on('partsLimit', () => settle(() => resolve(undefined)));
    parser.on('error', (err: unknown) => settle(() => reject(err)));
    parser.on('close', () => settle(() => resolve(fields)));
    parser.end(raw);
  });
}

/**
 * Parses `application/json` bodies of any JSON object (nested values, numbers, booleans,
 * arrays), for JSON APIs beside the form-field ones (e.g. an admin API): the same byte limit,
 * counted as the bytes arrive; another content type is 415; malformed JSON or a body that is
 * not an object is 400 (invalid parameter, `body`).
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  constructor(@Inject(FORM_BODY_OPTIONS) private readonly options: FormBodyOptions) {}

  use(req: Request, res: Response, next: NextFunction): void {
    if (!hasBody(req)) {
      next();
      return;
    }
    const { limitBytes, style } = this.options;
    const refuse = (answer: ApiException | InvalidParameterException): void => {
      req.pause();
      res.setHeader('Connection', 'close');
      next(answer);
    };
    if (Number(req.headers['content-length'] ?? 0) > limitBytes) {
      refuse(new ApiException(style.bodyTooLarge));
      return;
    }
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (encoding !== 'identity' || mediaType(req.headers['content-type']) !== 'application/json') {
      refuse(new ApiException(style.unsupportedMediaType));
      return;
    }
    readBounded(req, limitBytes).then(
      (raw) => {
        if (raw === undefined) {
          refuse(new ApiException(style.bodyTooLarge));
          return;
        }
        let value: unknown;
        try {
          value = JSON.parse(raw.toString('utf8'));
        } catch {
          next(new InvalidParameterException('body', 'malformed'));
          return;
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          next(new InvalidParameterException('body', 'malformed'));
          return;
        }
        req.body = value;
        next();
      },
      () => next(new InvalidParameterException('body', 'malformed')),
    );
  }
}
