import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import multer from 'multer';
import { ApiException, InvalidParameterException } from './api-exception';
import type { EnvelopeStyle } from './envelope';

export const FORM_BODY_OPTIONS = Symbol('FORM_BODY_OPTIONS');
export interface FormBodyOptions {
  /** Largest accepted body in bytes. */
  limitBytes: number;
  style: EnvelopeStyle;
}

const MULTER_TOO_LARGE = new Set(['LIMIT_PART_COUNT', 'LIMIT_FIELD_KEY', 'LIMIT_FIELD_VALUE', 'LIMIT_FIELD_COUNT']);

/**
 * Parses POST/PUT bodies: `application/x-www-form-urlencoded` and `multipart/form-data`
 * fields (files are refused). Runs inside Nest so that every parse error reaches the
 * exception filter: too large → 413 code, malformed → invalid parameter.
 */
@Injectable()
export class FormBodyMiddleware implements NestMiddleware {
  private readonly urlencoded: RequestHandler;
  private readonly multipart: RequestHandler;

  constructor(@Inject(FORM_BODY_OPTIONS) private readonly options: FormBodyOptions) {
    this.urlencoded = express.urlencoded({ extended: false, limit: options.limitBytes, parameterLimit: 200 });
    this.multipart = multer({
      limits: { fieldSize: options.limitBytes, fields: 200, parts: 200, files: 0, fieldNameSize: 200 },
    }).none();
  }

  use(req: Request, res: Response, next: NextFunction): void {
    const type = req.headers['content-type'] ?? '';
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > this.options.limitBytes) {
      next(new ApiException(this.options.style.bodyTooLarge));
      return;
    }
    const done = (err?: unknown): void => next(err === undefined ? undefined : this.translate(err));
    if (/^multipart\/form-data/i.test(type)) this.multipart(req, res, done);
    else this.urlencoded(req, res, done);
  }

  private translate(err: unknown): unknown {
    const e = err as { code?: unknown; type?: unknown; status?: unknown; name?: unknown };
    if (e.type === 'entity.too.large' || (typeof e.code === 'string' && MULTER_TOO_LARGE.has(e.code))) {
      return new ApiException(this.options.style.bodyTooLarge);
    }
    if (e.code === 'LIMIT_UNEXPECTED_FILE' || e.code === 'LIMIT_FILE_COUNT' || e.code === 'LIMIT_FILE_SIZE')
      return new InvalidParameterException('body', 'file in');
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return new InvalidParameterException('body', 'malformed');
    // busboy / multer parse errors (unexpected end of form, bad part header...) are the client's.
    if (e.name === 'MulterError' || err instanceof Error) return new InvalidParameterException('body', 'malformed');
    return err;
  }
}
